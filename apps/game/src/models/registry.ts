import type { GameModel } from '@raspa/core';
import { bumbaMeuGreenArt } from './bumba-meu-green/bumba-meu-green-art.ts';
import { feraSortudaArt } from './fera-sortuda/fera-sortuda-art.ts';
import { frevoDaSorteArt } from './frevo-da-sorte/frevo-da-sorte-art.ts';
import type { ModelArt } from './model-art.ts';
import { oxeGanheiArt } from './oxe-ganhei/oxe-ganhei-art.ts';
import { tremDeOuroV1Art } from './trem-de-ouro/trem-de-ouro-v1-art.ts';
import { tremDeOuroV2Art } from './trem-de-ouro/trem-de-ouro-v2-art.ts';
import { tremDeOuroV3Art } from './trem-de-ouro/trem-de-ouro-v3-art.ts';

/** Each game model's look. */
export const MODEL_ART: { readonly [M in GameModel]: ModelArt } = {
  'oxe-ganhei': oxeGanheiArt,
  'trem-de-ouro-v1': tremDeOuroV1Art,
  'trem-de-ouro-v2': tremDeOuroV2Art,
  'trem-de-ouro-v3': tremDeOuroV3Art,
  'frevo-da-sorte': frevoDaSorteArt,
  'bumba-meu-green': bumbaMeuGreenArt,
  'fera-sortuda': feraSortudaArt,
};
