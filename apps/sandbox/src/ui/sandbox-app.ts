import { el } from '@raspa/browser-kit';
import { type SandboxState, stateFromQuery, stateToQuery } from '../config/url-state.ts';
import { ConfigPanel } from './config-panel.ts';
import { copyText } from './copy-text.ts';
import { debounce } from './debounce.ts';

/**
 * The page: configuration A, and B beside it when comparing. The whole state lives in the query
 * string (replaced as the designer types), so the address is a link to exactly this view.
 */
export class SandboxApp {
  private readonly panels = el('main', { class: 'panels' });
  private readonly compare = el(
    'button',
    { type: 'button', 'data-action': 'compare', 'aria-pressed': 'false' },
    ['Compare with B'],
  );
  private readonly a: ConfigPanel;
  private b: ConfigPanel | null = null;
  private readonly writeUrl = debounce(() => {
    history.replaceState(null, '', `${location.pathname}${stateToQuery(this.state)}${location.hash}`);
  }, 100);

  constructor(root: HTMLElement, search: string) {
    const initial = stateFromQuery(search);
    const link = el('button', { type: 'button', 'data-action': 'copy-link' }, ['Copy link']);
    link.addEventListener('click', () => void copyText(link, location.href));
    this.compare.addEventListener('click', () => this.setComparing(this.b === null));
    root.append(
      el('header', { class: 'top' }, [
        el('div', {}, [
          el('h1', {}, ['Raspa ', el('span', {}, ['designer’s sandbox'])]),
          el('p', { class: 'lead' }, [
            'Tune a game model and see its ladder, odds and volatility at once. Every figure comes from the same core as the service; nothing leaves this page.',
          ]),
        ]),
        el('div', { class: 'actions' }, [this.compare, link]),
      ]),
      this.panels,
    );
    this.a = new ConfigPanel('A', initial.a, () => this.changed());
    this.panels.append(this.a.root);
    if (initial.b) this.setComparing(true, initial.b);
    this.changed();
  }

  get state(): SandboxState {
    return { a: this.a.current, b: this.b?.current ?? null };
  }

  private setComparing(on: boolean, config = this.a.current): void {
    if (on && !this.b) {
      this.b = new ConfigPanel('B', config, () => this.changed());
      this.panels.append(this.b.root);
    } else if (!on && this.b) {
      this.b.destroy();
      this.b = null;
    }
    this.panels.classList.toggle('comparing', this.b !== null);
    this.compare.setAttribute('aria-pressed', String(this.b !== null));
    this.compare.textContent = this.b ? 'Stop comparing' : 'Compare with B';
    this.changed();
  }

  private changed(): void {
    const { a, b } = this.state;
    this.a.markDifferences(b);
    this.b?.markDifferences(a);
    this.writeUrl();
  }
}
