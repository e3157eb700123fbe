import { el, LANGS, preferredLang } from '@raspa/browser-kit';
import type { Lang } from '@raspa/server/wire';
import { ApiError, createApiClient } from './api/api-client.ts';
import { CATALOGUES } from './i18n/i18n.ts';
import { accessPage } from './pages/access-page.ts';
import { auditPage } from './pages/audit-page.ts';
import { accountPage, forgotPasswordPage, link, resetPasswordPage, signInPage } from './pages/auth-pages.ts';
import { flaggedPage } from './pages/flagged-page.ts';
import { gamesPage } from './pages/games-page.ts';
import { roundsPage, transactionsPage } from './pages/ledger-pages.ts';
import { overviewPage } from './pages/overview-page.ts';
import { playerPage } from './pages/player-page.ts';
import { playersPage } from './pages/players-page.ts';
import { profilesPage } from './pages/profiles-page.ts';
import { promotionPage } from './pages/promotion-page.ts';
import { promotionsPage } from './pages/promotions-page.ts';
import { roundPage } from './pages/round-page.ts';
import { webhooksPage } from './pages/webhooks-page.ts';
import { Session } from './session.ts';
import { select } from './ui/blocks.ts';
import type { Page, PageContext } from './ui/context.ts';

const BASE = '/panel/';
const LANG_KEY = 'raspa-panel-lang';

/** The sections a signed-in user reaches from the navigation, in its order. */
const SECTIONS = [
  'overview',
  'profiles',
  'games',
  'players',
  'promotions',
  'rounds',
  'flagged',
  'transactions',
  'webhooks',
  'audit',
  'access',
  'account',
] as const;
type Section = (typeof SECTIONS)[number];
const PUBLIC_ROUTES = ['sign-in', 'forgot-password', 'reset-password'] as const;

const SECTION_PAGES: Record<Section, Page> = {
  overview: overviewPage,
  profiles: profilesPage,
  games: gamesPage,
  players: playersPage,
  promotions: promotionsPage,
  rounds: roundsPage,
  flagged: flaggedPage,
  transactions: transactionsPage,
  webhooks: webhooksPage,
  audit: auditPage,
  access: accessPage,
  account: accountPage,
};
/** Pages reached from another page, not from the navigation, and the section they belong to. */
const INNER_PAGES: Record<string, { page: Page; section: Section }> = {
  round: { page: roundPage, section: 'rounds' },
  player: { page: playerPage, section: 'players' },
  promotion: { page: promotionPage, section: 'promotions' },
};

/** The route named by an address under /panel/ ('' → the first section). */
export function routeOf(pathname: string): string {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : '';
  return rest.replace(/\/+$/, '') || SECTIONS[0];
}

/**
 * The panel: a header with the navigation, the language switch and sign-out, and one page at a time
 * in <main>. Addresses are real paths under /panel/ (the service answers index.html for each), so
 * Back, reload and "open in a new tab" work.
 */
export class PanelApp {
  private lang: Lang;
  private readonly session = new Session(sessionStorage);
  private readonly main = el('main', { id: 'main', tabindex: -1 });
  private readonly header = el('header', { class: 'top' });
  private notice: string | undefined;
  /** The reset link's token, taken out of the address as soon as the page loads. */
  private resetToken = '';
  private readonly api = createApiClient({
    tokens: () => this.session.get(),
    lang: () => this.lang,
    onExpired: () => this.expired(),
  });

  constructor(private readonly root: HTMLElement) {
    this.lang = preferredLang(localStorage.getItem(LANG_KEY), navigator.languages);
    const query = new URLSearchParams(location.search);
    if (routeOf(location.pathname) === 'reset-password' && query.has('token')) {
      this.resetToken = query.get('token') ?? '';
      history.replaceState(null, '', `${BASE}reset-password`);
    }
    window.addEventListener('popstate', () => this.render());
    root.replaceChildren(el('a', { class: 'skip', href: '#main' }, ['']), this.header, this.main);
    this.render();
  }

  private get t() {
    return CATALOGUES[this.lang];
  }

  private expired(): void {
    if (!this.session.get()) return;
    this.session.clear();
    const here = routeOf(location.pathname);
    // Back to the same page (its query too: a round's id, the filters) once signed in again.
    const known = (SECTIONS as readonly string[]).includes(here) || here in INNER_PAGES;
    this.navigate('sign-in', {
      notice: this.t.auth.expired,
      replace: true,
      query: known ? { next: `${here}${location.search}` } : {},
    });
  }

  navigate(
    route: string,
    options: { query?: Record<string, string>; notice?: string; replace?: boolean } = {},
  ): void {
    const search =
      options.query && Object.keys(options.query).length ? `?${new URLSearchParams(options.query)}` : '';
    const url = `${BASE}${route}${search}`;
    if (options.replace) history.replaceState(null, '', url);
    else history.pushState(null, '', url);
    this.notice = options.notice;
    this.render();
  }

  private render(): void {
    const t = this.t;
    document.documentElement.lang = this.lang;
    let route = routeOf(location.pathname);
    const signedIn = Boolean(this.session.get());
    const isPublic = (PUBLIC_ROUTES as readonly string[]).includes(route);
    if (!signedIn && !isPublic) {
      const next = `${route}${location.search}`;
      history.replaceState(
        null,
        '',
        `${BASE}sign-in${route === SECTIONS[0] ? '' : `?next=${encodeURIComponent(next)}`}`,
      );
      route = 'sign-in';
    } else if (signedIn && route === 'sign-in') {
      history.replaceState(null, '', `${BASE}${SECTIONS[0]}`);
      route = SECTIONS[0];
    }
    const context: PageContext = {
      api: this.api,
      t,
      lang: this.lang,
      session: this.session,
      query: new URLSearchParams(location.search),
      notice: this.notice,
      navigate: (next, options) => this.navigate(next, options),
      setQuery: (query) => {
        const params = new URLSearchParams();
        for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
        const search = params.toString();
        history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`);
      },
    };
    this.notice = undefined;
    const page = this.pageFor(route, signedIn);
    this.renderHeader(route, signedIn, context);
    this.main.replaceChildren(page(context));
    const title = this.main.querySelector('h1');
    document.title = `${title?.textContent ?? ''} · ${t.app.title}`;
    // Focus follows the navigation: the new page's heading, so a screen reader starts there.
    (title ?? this.main).focus({ preventScroll: false });
  }

  private pageFor(route: string, signedIn: boolean): Page {
    if (route === 'sign-in') return signInPage;
    if (route === 'forgot-password') return forgotPasswordPage;
    if (route === 'reset-password') return resetPasswordPage(this.resetToken);
    if (signedIn && route in SECTION_PAGES) return SECTION_PAGES[route as Section];
    if (signedIn && route in INNER_PAGES) return (INNER_PAGES[route] as { page: Page }).page;
    return notFoundPage;
  }

  private renderHeader(route: string, signedIn: boolean, context: PageContext): void {
    const t = this.t;
    const langSelect = select(
      'lang',
      LANGS.map((lang) => [lang, t.lang[lang]] as const),
      this.lang,
    );
    langSelect.id = 'panel-lang';
    langSelect.addEventListener('change', () => {
      this.lang = langSelect.value as Lang;
      localStorage.setItem(LANG_KEY, this.lang);
      this.render();
      document.getElementById('panel-lang')?.focus();
    });
    const skip = this.root.querySelector<HTMLAnchorElement>('a.skip');
    if (skip) skip.textContent = t.app.skip;
    const nav = signedIn
      ? el('nav', { 'aria-label': t.app.nav }, [
          el(
            'ul',
            {},
            SECTIONS.map((section) => {
              const anchor = link(context, section, t.nav[section]);
              if (section === route) anchor.setAttribute('aria-current', 'page');
              else if (INNER_PAGES[route]?.section === section) anchor.setAttribute('aria-current', 'true');
              return el('li', {}, [anchor]);
            }),
          ),
        ])
      : null;
    const signOut = signedIn ? el('button', { type: 'button', class: 'secondary' }, [t.nav.signOut]) : null;
    signOut?.addEventListener('click', () => void this.signOut(signOut));
    this.header.replaceChildren(
      el('div', { class: 'brand' }, [
        el('span', {}, ['Raspa']),
        ` ${t.app.title.replace(/^Raspa\s*·?\s*/, '')}`,
      ]),
      nav ?? el('span'),
      el('div', { class: 'tools' }, [
        el('label', { for: 'panel-lang' }, [t.lang.label]),
        langSelect,
        signOut,
      ]),
    );
  }

  /**
   * Ends the token set on the service (POST /v1/auth/logout), then forgets it here. When the service
   * cannot be told, the browser forgets it all the same and says that the token set lives until it
   * expires.
   */
  private async signOut(button: HTMLButtonElement): Promise<void> {
    const t = this.t;
    button.disabled = true;
    button.textContent = t.nav.signingOut;
    const told = await this.api.signOut().then(
      () => true,
      (error: unknown) => error instanceof ApiError && error.status === 401, // already ended
    );
    this.session.clear();
    this.navigate('sign-in', { notice: told ? t.auth.signedOut : t.auth.signedOutHere, replace: true });
  }
}

const notFoundPage: Page = (context) =>
  el('section', {}, [
    el('h1', { tabindex: -1 }, ['404']),
    el('p', {}, [link(context, SECTIONS[0], context.t.nav.overview)]),
  ]);
