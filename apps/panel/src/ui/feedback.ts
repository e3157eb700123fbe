import { el } from '@raspa/browser-kit';
import { ApiError, NETWORK_ERROR } from '../api/api-client.ts';
import type { Catalogue } from '../i18n/en.ts';

/** The messages to show for a failed request: the error envelope's own sentences when it has them. */
export function errorMessages(error: unknown, t: Catalogue): string[] {
  if (error instanceof ApiError) {
    if (error.code === NETWORK_ERROR) return [t.common.network];
    if (error.messages.length > 0) return error.messages;
  }
  return [t.common.unknownError];
}

/**
 * A region's progress and outcome: a polite status line ("Loading…", "Saved") and an alert with the
 * error's messages. Every request the user waits on goes through `run`, which also marks the region
 * busy and disables the button that started it, so a second click cannot send it twice.
 */
export class Feedback {
  readonly status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
  readonly alert = el('div', { class: 'alert', role: 'alert', hidden: true });

  constructor(private readonly t: () => Catalogue) {}

  nodes(): HTMLElement[] {
    return [this.status, this.alert];
  }

  say(text: string): void {
    this.status.textContent = text;
  }

  fail(error: unknown): void {
    this.show(errorMessages(error, this.t()));
  }

  /** Shows messages in the alert (read out at once by screen readers). */
  show(messages: string[]): void {
    this.alert.replaceChildren(
      el('p', {}, [this.t().common.errorTitle]),
      el(
        'ul',
        {},
        messages.map((message) => el('li', {}, [message])),
      ),
    );
    this.alert.hidden = false;
  }

  clear(): void {
    this.status.textContent = '';
    this.alert.hidden = true;
    this.alert.replaceChildren();
  }

  /** Runs a request, saying `pending` meanwhile; resolves to its result, or undefined once the error is shown. */
  async run<T>(
    pending: string,
    task: () => Promise<T>,
    options: { button?: HTMLButtonElement | null; region?: HTMLElement } = {},
  ): Promise<T | undefined> {
    this.clear();
    this.say(pending);
    const { button, region } = options;
    if (button) button.disabled = true;
    region?.setAttribute('aria-busy', 'true');
    try {
      const result = await task();
      this.say('');
      return result;
    } catch (error) {
      this.say('');
      this.fail(error);
      return undefined;
    } finally {
      if (button) button.disabled = false;
      region?.removeAttribute('aria-busy');
    }
  }
}

/** Resolves once the browser has painted, so a status said just before a long computation shows. */
export const afterPaint = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
