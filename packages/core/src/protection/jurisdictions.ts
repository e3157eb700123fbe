import type { PlayRules } from './protection-schemas.ts';

/**
 * Jurisdiction presets (CONTRACT §13): the page and play rules a profile's `jurisdiction` turns on, one
 * row per rule with the text it comes from, read by the server (to enforce) and the page (to show).
 * docs/player-protection.md prints this table; a reference marked `checked: false` still has to be read
 * against the regulation's own text.
 */

export const JURISDICTIONS = ['BR', 'GB'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/** Without a jurisdiction the game stays as it is today: nothing added, "Reveal all" offered. */
export const DEFAULT_PLAY_RULES: PlayRules = {
  minMsBetweenBuys: 0,
  revealAll: true,
  showElapsedTime: false,
  showNetPosition: false,
  showRtp: false,
  ageNotice: null,
  showResponsibleGamingLink: false,
  defaultRealityCheckMinutes: null,
};

export interface RuleSource {
  /** The regulation, e.g. "UKGC Remote gambling and software technical standards (RTS), 2025". */
  regulation: string;
  /** Where in it, e.g. "RTS 14"; "to be checked" when the article is not confirmed. */
  reference: string;
  /** True once the reference was read in the regulation's own text. */
  checked: boolean;
}

/** One rule a jurisdiction sets, with its value and its source (the value's type follows the rule). */
export type PresetRow = {
  [Rule in keyof PlayRules]: { rule: Rule; value: PlayRules[Rule]; source: RuleSource };
}[keyof PlayRules];

export interface JurisdictionPreset {
  name: string;
  rows: readonly PresetRow[];
}

const UKGC_RTS =
  'UKGC Remote gambling and software technical standards (RTS), revised, in force 17 January 2025';
const PORTARIA_1231 = 'Portaria SPA/MF nº 1.231/2024, as amended by Portaria SPA/MF nº 2.579/2025';
const LEI_14790 = 'Lei nº 14.790/2023';

export const JURISDICTION_PRESETS: Readonly<Record<Jurisdiction, JurisdictionPreset>> = {
  GB: {
    name: 'Great Britain',
    rows: [
      {
        rule: 'minMsBetweenBuys',
        value: 5_000,
        source: {
          regulation: UKGC_RTS,
          reference:
            'RTS 14G (at least 5 s from the start of a game until the next game cycle can start; casino games other than slots): the 5 s rule confirmed in the Commission\'s 2024 consultation response, the letter 14G and its text only in law-firm summaries, to be checked in the RTS itself. Slots ("reel-based" games) have 2.5 s instead; a scratch card is not reel-based, and 5 s meets both',
          checked: false,
        },
      },
      {
        rule: 'revealAll',
        value: false,
        source: {
          regulation: UKGC_RTS,
          reference:
            'RTS 14E (the customer must not be able to shorten the time until the result is shown: no turbo, quick spin, slam stop): letter and text only in law-firm summaries, which also report that its guidance exempts a "scratch-all" feature of instant-win games; to be checked in the RTS itself. No "Reveal all" is our stricter choice (issue 25)',
          checked: false,
        },
      },
      {
        rule: 'showElapsedTime',
        value: true,
        source: {
          regulation: UKGC_RTS,
          reference:
            "RTS 13C (elapsed time displayed for the whole gaming session, in hours, minutes and seconds), read in the Commission's own text; that it applies beyond slots since 17 January 2025 is still to be checked",
          checked: true,
        },
      },
      {
        rule: 'showNetPosition',
        value: true,
        source: {
          regulation: UKGC_RTS,
          reference:
            "RTS 2E (net position since the session started, in the account's currency, shown throughout the gaming session), read in the Commission's own text; that it applies beyond slots since 17 January 2025 is still to be checked",
          checked: true,
        },
      },
    ],
  },
  BR: {
    name: 'Brazil',
    rows: [
      {
        rule: 'showRtp',
        value: true,
        source: {
          regulation: PORTARIA_1231,
          reference:
            'art. 4, II (inform the RTP of each online game in the betting system); art. 2, XX (RTP defined, as amended by 2.579/2025): both read only in unofficial copies, to be checked in the DOU (in.gov.br)',
          checked: false,
        },
      },
      {
        rule: 'ageNotice',
        value: 18,
        source: {
          regulation: LEI_14790,
          reference:
            'art. 26, I (no one under 18 may bet); art. 16, sole paragraph, II (the advertising rules cover the ban on under-18s): read only in unofficial copies, to be checked on planalto.gov.br; the law bars minors, the "18+" notice on the game is our reading of it',
          checked: false,
        },
      },
      {
        rule: 'showResponsibleGamingLink',
        value: true,
        source: {
          regulation: PORTARIA_1231,
          reference:
            "art. 4, I and III (inform the bettor of the risks at registration and at each access; warning signs); read only in an unofficial copy, to be checked in the DOU. The link to the Secretariat's centralised self-exclusion platform (2.579/2025) is a different duty, not covered by this link",
          checked: false,
        },
      },
      {
        rule: 'defaultRealityCheckMinutes',
        value: 60,
        source: {
          regulation: PORTARIA_1231,
          reference:
            "art. 31 as amended by 2.579/2025 (registration fields V, XI and XII, among them mandatory prudential limits of time elapsed and of loss), per the Secretariat's FAQ on gov.br, the article text to be checked in the DOU; no alert interval found in any text: 60 minutes is our choice",
          checked: false,
        },
      },
    ],
  },
};

/** The rules in force for a profile's jurisdiction (null: the defaults). */
export function playRulesOf(jurisdiction: Jurisdiction | null): PlayRules {
  if (jurisdiction === null) return DEFAULT_PLAY_RULES;
  const rules: Record<string, unknown> = { ...DEFAULT_PLAY_RULES };
  for (const row of JURISDICTION_PRESETS[jurisdiction].rows) rules[row.rule] = row.value;
  return rules as unknown as PlayRules;
}

/**
 * When a buy may start under the minimum time between buys: `lastBuyAt` + the gap, or at once.
 * Times in epoch ms; a clock that went back makes the player wait no longer than one gap from now.
 */
export function nextBuyAllowedAt(lastBuyAt: number | null, minMsBetweenBuys: number, now: number): number {
  if (lastBuyAt === null || minMsBetweenBuys <= 0) return now;
  return Math.min(Math.max(now, lastBuyAt + minMsBetweenBuys), now + minMsBetweenBuys);
}

/** Whether a buy may start now under the minimum time between buys. */
export function mayBuyStartNow(lastBuyAt: number | null, minMsBetweenBuys: number, now: number): boolean {
  return nextBuyAllowedAt(lastBuyAt, minMsBetweenBuys, now) <= now;
}
