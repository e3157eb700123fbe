import { asLang, type Lang } from '@raspa/browser-kit';
import { type GameModel, isGameModel, PAGE_SESSION_STATE, type SessionEndCode } from '@raspa/core';

/** What the page knows before it connects: from its URL and the attributes the server wrote. */
export interface Launch {
  /** The session token from `?token=`, or null (a reload after it was removed, a bad link). */
  token: string | null;
  sessionId: string;
  lang: Lang;
  /** The game model, when the server recognised the session (themes the loading screen). */
  model: GameModel | null;
  /** False when the server already knows the token is unknown or expired. */
  sessionKnown: boolean;
  /** How the session ended, when the server already knows it did (a gameUrl opened again). */
  ended: SessionEndCode | null;
  /** An ended session's way back to the operator's site (a live one learns it from `state`). */
  returnUrl: string | null;
  /** True inside an operator's frame. */
  framed: boolean;
}

/**
 * Splits the session token off a gameUrl: the token, and the same URL without it (to put in the
 * address bar, so it does not linger in history, bookmarks or screenshots).
 */
export function takeToken(href: string): { token: string | null; cleanUrl: string } {
  const url = new URL(href);
  const token = url.searchParams.get('token');
  url.searchParams.delete('token');
  return {
    token: token && token.length > 0 ? token : null,
    cleanUrl: `${url.pathname}${url.search}${url.hash}`,
  };
}

/** Whether the server knew the session, and how it ended if it did (core PAGE_SESSION_STATE). */
export function sessionStateOf(dataSession: string | undefined): {
  known: boolean;
  ended: SessionEndCode | null;
} {
  const entry = Object.entries(PAGE_SESSION_STATE).find(([, state]) => state === dataSession);
  if (!entry) return { known: false, ended: null };
  return { known: true, ended: entry[0] === 'live' ? null : (entry[0] as SessionEndCode) };
}

export function sessionIdOf(pathname: string): string {
  const match = /\/play\/([^/?#]+)/.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

/** Reads the launch facts and removes the token from the address bar. */
export function readLaunch(win: Window): Launch {
  const { token, cleanUrl } = takeToken(win.location.href);
  if (token) win.history.replaceState(win.history.state, '', cleanUrl);
  const root = win.document.documentElement;
  const model = root.dataset.model;
  let framed = true;
  try {
    framed = win.self !== win.top;
  } catch {
    framed = true;
  }
  const session = sessionStateOf(root.dataset.session);
  return {
    token,
    sessionId: sessionIdOf(win.location.pathname),
    lang: asLang(root.lang && session.known ? root.lang : win.navigator.language),
    model: isGameModel(model) ? model : null,
    sessionKnown: root.dataset.session !== 'expired',
    ended: session.ended,
    returnUrl: root.dataset.returnUrl ?? null,
    framed,
  };
}
