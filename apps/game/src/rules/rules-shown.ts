import type { PlayStateRules } from '@raspa/core';

/** What the page shows and offers under the session's play rules (docs/player-protection.md). */
export interface RulesShown {
  /** The session's elapsed time, always on screen and kept current (GB, RTS 13C). */
  elapsed: boolean;
  /** The session's net position, always on screen (GB, RTS 2E). */
  net: boolean;
  /** Whether "Reveal all" is offered (GB: scratch only, RTS 14E). */
  revealAll: boolean;
  /** The least time between one buy and the next, in ms (GB: 5000; 0: none). */
  minMsBetweenBuys: number;
  /** The game's RTP to show (a fraction), or null (BR shows it). */
  rtp: number | null;
  /** The minimum age to show ("18+"), or null. */
  ageNotice: number | null;
  /** The responsible-gaming page to link to, or null (none asked for, none set, or not a web address). */
  responsibleGamingUrl: string | null;
}

/** Before the state arrives, and without a jurisdiction: nothing shown, "Reveal all" offered. */
export const NOTHING_SHOWN: RulesShown = {
  elapsed: false,
  net: false,
  revealAll: true,
  minMsBetweenBuys: 0,
  rtp: null,
  ageNotice: null,
  responsibleGamingUrl: null,
};

/** A link the page may open: http(s) only, so a profile's value can never run script. */
const isWebAddress = (url: string): boolean => {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};

export function rulesShown(rules: PlayStateRules | null | undefined): RulesShown {
  if (!rules) return NOTHING_SHOWN;
  const url = rules.responsibleGamingUrl;
  return {
    elapsed: rules.showElapsedTime,
    net: rules.showNetPosition,
    revealAll: rules.revealAll,
    minMsBetweenBuys: Math.max(0, rules.minMsBetweenBuys),
    rtp: rules.showRtp ? rules.rtp : null,
    ageNotice: rules.ageNotice,
    responsibleGamingUrl: rules.showResponsibleGamingLink && url && isWebAddress(url) ? url : null,
  };
}

/** Whether the page has anything of the rules to show (the bar stays hidden otherwise). */
export const showsAnything = (shown: RulesShown): boolean =>
  shown.elapsed ||
  shown.net ||
  shown.rtp !== null ||
  shown.ageNotice !== null ||
  shown.responsibleGamingUrl !== null;

/**
 * Elapsed time in hours, minutes and seconds ("0:04:07", "12:00:00"), as RTS 13C's guidance asks
 * ("in seconds, minutes and hours"); a negative span (a clock set back) shows as zero.
 */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
