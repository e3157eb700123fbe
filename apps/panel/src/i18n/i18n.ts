import type { Lang } from '@raspa/browser-kit';
import { type Catalogue, en } from './en.ts';
import { es } from './es.ts';
import { pt } from './pt.ts';

export const CATALOGUES: Record<Lang, Catalogue> = { pt, en, es };
