/**
 * Every tunable of the player's page in one place, merged with overrides (tests, a future operator
 * setting). Times are milliseconds, sizes are card units (the card's own coordinate space).
 */
export interface GameConfig {
  scratch: {
    /** Brush radius in card units. */
    brushRadius: number;
    /** Share of the brush radius that fades out (the soft edge), 0..1. */
    brushSoftness: number;
    /** Distance between brush stamps along a stroke, as a share of the radius. */
    stampSpacing: number;
    /** The coverage grid's columns and rows over the scratch area. */
    gridCols: number;
    gridRows: number;
    /** The card reveals itself once this share of the grid is scratched. */
    revealAt: number;
    /** How often the scratched share is checked while scratching (not on every move). */
    measureEveryMs: number;
    /** Foil resolution (texture pixels per card unit). */
    foilResolution: number;
    /** Fade-out of the foil on reveal (0 with reduced motion). */
    fadeOutMs: number;
  };
  celebrate: {
    confettiCount: number;
    confettiMs: number;
    bannerPopMs: number;
  };
  net: {
    /** A request with no answer in this time is treated as a lost connection. */
    requestTimeoutMs: number;
  };
  ui: {
    /** Device pixel ratio cap (a 3× phone does not need 9× the pixels). */
    maxResolution: number;
  };
}

export const defaultConfig: GameConfig = {
  scratch: {
    brushRadius: 34,
    brushSoftness: 0.45,
    stampSpacing: 0.35,
    gridCols: 24,
    gridRows: 24,
    revealAt: 0.6,
    measureEveryMs: 150,
    foilResolution: 1.5,
    fadeOutMs: 450,
  },
  celebrate: {
    confettiCount: 140,
    confettiMs: 3200,
    bannerPopMs: 420,
  },
  net: {
    requestTimeoutMs: 15_000,
  },
  ui: {
    maxResolution: 2,
  },
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** The default configuration with some values replaced. */
export function mergeConfig(overrides: DeepPartial<GameConfig> = {}): GameConfig {
  return {
    scratch: { ...defaultConfig.scratch, ...overrides.scratch },
    celebrate: { ...defaultConfig.celebrate, ...overrides.celebrate },
    net: { ...defaultConfig.net, ...overrides.net },
    ui: { ...defaultConfig.ui, ...overrides.ui },
  };
}
