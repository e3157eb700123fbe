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
            'RTS 14 (responsible product design), minimum time between game cycles: the requirement, and whether a scratch card is a "slot" under 14C–14F, to be checked',
          checked: false,
        },
      },
      {
        rule: 'revealAll',
        value: false,
        source: {
          regulation: UKGC_RTS,
          reference:
            'RTS 14 (no feature that speeds play or shortens the time to the result): article to be checked',
          checked: false,
        },
      },
      {
        rule: 'showElapsedTime',
        value: true,
        source: {
          regulation: UKGC_RTS,
          reference: 'RTS 13 (time requirements and reality checks)',
          checked: false,
        },
      },
      {
        rule: 'showNetPosition',
        value: true,
        source: {
          regulation: UKGC_RTS,
          reference: 'RTS 2 (displaying transactions): article to be checked',
          checked: false,
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
          reference: 'art. 2, XX (RTP defined); duty to inform: article to be checked',
          checked: false,
        },
      },
      {
        rule: 'ageNotice',
        value: 18,
        source: {
          regulation: LEI_14790,
          reference: 'minors barred from betting: article to be checked',
          checked: false,
        },
      },
      {
        rule: 'showResponsibleGamingLink',
        value: true,
        source: {
          regulation: PORTARIA_1231,
          reference: 'responsible-gaming information to the bettor: article to be checked',
          checked: false,
        },
      },
      {
        rule: 'defaultRealityCheckMinutes',
        value: 60,
        source: {
          regulation: PORTARIA_1231,
          reference:
            'alerts and pauses of time: article and interval to be checked (60 minutes is our choice)',
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
