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
  freeCards: true,
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
            'RTS 14G ("a minimum of 5 seconds from the time a game is started until the next game cycle can be commenced"; casino games other than slots and peer-to-peer poker, since 17 January 2025): letter, wording and scope read only in law-firm summaries (Harris Hagan, Wiggin). The Commission\'s own pages confirm the 5 s rule and its form (Summer 2023 consultation response, "Costs, timings and testing of games"), but the only stored copy of its RTS 14 page predates the revision (14C to 14F "Slots", no 14G): searched again on 26 November 2026, not found. Applies if a scratch card is a casino game, which is how an operator\'s remote casino licence offers it (docs/player-protection.md, "Casino game or instant lottery?"). Slots have 2.5 s; 5 s meets both',
          checked: false,
        },
      },
      {
        rule: 'revealAll',
        value: false,
        source: {
          regulation: UKGC_RTS,
          reference:
            'RTS 14E ("must not permit a customer to reduce the time until the result is presented": turbo, quick spin, slam stop; "all casino" since 17 January 2025): read only in law-firm summaries, which also report that its guidance exempts a "scratch-all" feature of instant-win games. The Commission\'s stored RTS 14 page predates the revision and gives 14E to slots only; the revised page was searched for on 26 November 2026 and is not stored. No "Reveal all" is our stricter choice (issue 25); no text read requires it',
          checked: false,
        },
      },
      {
        rule: 'showElapsedTime',
        value: true,
        source: {
          regulation: UKGC_RTS,
          reference:
            'RTS 13C ("The elapsed time should be displayed for the duration of the gaming session"; guidance: in hours, minutes and seconds), read in the Commission\'s own text, the 2021 "Annex 1 – Summary of changes to RTS" (gamblingcommission.gov.uk/consultation-response/online-games-design-and-reverse-withdrawals/ogdrw-annex-1-summary-of-changes-to-rts). That it applies to all casino games since 17 January 2025 is read only in summaries',
          checked: true,
        },
      },
      {
        rule: 'showNetPosition',
        value: true,
        source: {
          regulation: UKGC_RTS,
          reference:
            'RTS 2E (all gaming sessions must "clearly display a customer\'s net position, in the currency of their account or product … since the session started"), read in the Commission\'s own text (the same 2021 Annex 1). Its scope is not settled by the Commission\'s text: the stored RTS annex (gamblingcommission.gov.uk/standards/remote-gambling-and-software-technical-standards/5-annex) still lists "RTS 2E – displaying transactions (Slots)"; the extension to all casino games on 17 January 2025 is read only in summaries',
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
            'art. 4, II ("informar o retorno teórico ao jogador de cada jogo on-line disponibilizado no sistema de apostas"); art. 2, XX (RTP defined, as amended by 2.579/2025): read only in unofficial copies (Tiknews, Legisweb). No copy on in.gov.br or gov.br is stored (searched again on 26 November 2026)',
          checked: false,
        },
      },
      {
        rule: 'ageNotice',
        value: 18,
        source: {
          regulation: LEI_14790,
          reference:
            'art. 26, I (no one under 18 may bet) and art. 26, § 4 ("Os impedimentos de que trata o caput deste artigo serão informados pelos agentes operadores de apostas, de forma destacada, nos canais físicos ou on-line de comercialização"), read in copies only: LegJur, and a JSON transcription of planalto.gov.br/ccivil_03/_ato2023-2026/2023/lei/l14790.htm in the public repository agc2020/consulta; art. 16, sole paragraph, II in a third-party mirror of the signed DOU of 30 December 2023 (diaoficial.com). Nothing on planalto.gov.br or in.gov.br is stored (searched again on 26 November 2026). § 4 asks the operator to show the ban prominently in its online channel; the "18+" notice on the game is our way of doing that there',
          checked: false,
        },
      },
      {
        rule: 'showResponsibleGamingLink',
        value: true,
        source: {
          regulation: PORTARIA_1231,
          reference:
            'art. 4, I and III (inform the bettor of the risks of dependence and of losing what is bet "no momento do cadastro, assim como no momento do acesso ao sistema de apostas"; warning signs for self-monitoring): read only in an unofficial copy (Tiknews); not stored on in.gov.br (searched again on 26 November 2026). The direct link to the Secretariat\'s centralised self-exclusion platform (2.579/2025, per its own FAQ on gov.br) is a different duty, not covered by this link',
          checked: false,
        },
      },
      {
        rule: 'defaultRealityCheckMinutes',
        value: 60,
        source: {
          regulation: PORTARIA_1231,
          reference:
            'art. 31, V, XI and XII as amended by 2.579/2025: at registration, "limites prudenciais obrigatórios (de perda financeira e de tempo transcorrido)", read in the Secretariat\'s own FAQ on gov.br (item 3), not in the ordinance, whose text is not stored. No text read sets an alert interval: 60 minutes is our choice',
          checked: false,
        },
      },
      {
        rule: 'freeCards',
        value: false,
        source: {
          regulation: LEI_14790,
          reference:
            'art. 29, I (the operator may not "conceder, sob qualquer forma, adiantamento, antecipação, bonificação ou vantagem prévia, ainda que a mero título de promoção, de divulgação ou de propaganda, para a realização de aposta"): read in a transcription of the planalto.gov.br text, to be checked there. A free card is such an advantage on a plain reading, so promotions are refused under BR (docs/promotions.md)',
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
