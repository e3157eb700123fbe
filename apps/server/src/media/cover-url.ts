import type { GameModel } from '@raspa/core';

/** Where the service serves the cover images it ships (one per game model). */
export const COVERS_PATH = '/media/covers';

/** The spec's `mediaUrl`: the cover of a model, on the service's public address. */
export function coverUrl(publicUrl: string, gameModel: GameModel): string {
  return `${publicUrl}${COVERS_PATH}/${gameModel}.svg`;
}
