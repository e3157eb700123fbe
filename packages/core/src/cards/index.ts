export type {
  BumbaMeuGreenCard,
  Card,
  CardCell,
  CardModelInfo,
  CardOfModel,
  CardReading,
  CardRule,
  CardSymbol,
  FeraSortudaCard,
  FrevoDaSorteCard,
  LocalizedText,
  OxeGanheiCard,
  TremDeOuroV1Card,
  TremDeOuroV2Card,
  TremDeOuroV3Card,
} from './card-types.ts';
export { CARD_MODELS, decodeCard, layoutCard, readCard } from './layout-card.ts';
