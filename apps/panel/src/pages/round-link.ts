import type { PageContext } from '../ui/context.ts';
import { shortId } from '../ui/short-id.ts';
import { link } from './auth-pages.ts';

/** A round's id as a link to its details page (the whole id is its accessible name). */
export function roundLink(context: PageContext, roundId: string): HTMLElement {
  const anchor = link(context, 'round', '', { id: roundId });
  anchor.append(shortId(roundId));
  anchor.setAttribute('aria-label', context.t.round.open(roundId));
  return anchor;
}
