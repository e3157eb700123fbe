import { el } from '@raspa/browser-kit';
import type { CardModelInfo } from '@raspa/core';
import type { I18n } from '../i18n/i18n.ts';

export interface LadderLevel {
  level: number;
  winners: number;
  prize: number;
}

/**
 * The game's prize ladder as the player should see it: the prize of each level, top prize first,
 * the symbol worth it where symbols carry a prize, and the odds of a card winning it.
 */
export function prizeTable(
  i18n: I18n,
  info: CardModelInfo,
  levels: readonly LadderLevel[],
  sampling: number,
  icons: ReadonlyMap<string, string>,
): HTMLTableElement {
  const bySymbol = new Map(
    info.symbols.filter((symbol) => symbol.level !== undefined).map((symbol) => [symbol.level, symbol]),
  );
  const withSymbols = bySymbol.size > 0;
  const head = el('tr', {}, [
    el('th', { scope: 'col' }, [i18n.t('colPrize')]),
    ...(withSymbols ? [el('th', { scope: 'col' }, [i18n.t('colSymbol')])] : []),
    el('th', { scope: 'col' }, [i18n.t('colOdds')]),
  ]);
  const rows = [...levels]
    .sort((a, b) => b.level - a.level)
    .map((level) => {
      const symbol = bySymbol.get(level.level);
      const odds =
        level.winners > 0 ? i18n.t('odds', { n: i18n.count(Math.round(sampling / level.winners)) }) : '—';
      const prizeCell = el('td', { class: 'prize' }, moneyParts(i18n.money(level.prize)));
      if (level.level === levels.length) prizeCell.append(el('span', { class: 'tag' }, [i18n.t('jackpot')]));
      const cells: HTMLElement[] = [prizeCell];
      if (withSymbols) {
        const icon = symbol ? icons.get(symbol.id) : undefined;
        cells.push(
          el('td', { class: 'symbol' }, [
            el('span', {}, [
              ...(icon ? [el('img', { src: icon, alt: '', width: 28, height: 28 })] : []),
              symbol ? i18n.pick(symbol.name) : '',
            ]),
          ]),
        );
      }
      cells.push(el('td', { class: 'odds' }, [odds]));
      return el('tr', { 'data-level': level.level }, cells);
    });
  return el('table', { class: 'ladder' }, [
    el('caption', {}, [i18n.t('prizeTable')]),
    el('thead', {}, [head]),
    el('tbody', {}, rows),
  ]);
}

/**
 * A prize as the parts that may go on separate lines when the column is narrow: the currency
 * ("KWD", "R$") and the amount, each kept whole ("KWD 1,729,957.469" → "KWD" above "1,729,957.469").
 */
function moneyParts(text: string): Array<HTMLElement | string> {
  const words = text.split(/[\s\u00a0\u202f]+/).filter(Boolean);
  const amountAt = words.findIndex((word) => /\d/.test(word));
  if (words.length < 2 || amountAt < 0) return [el('span', { class: 'amount' }, [text])];
  return words.flatMap((word, index) => [
    ...(index > 0 ? [' '] : []),
    index === amountAt ? el('span', { class: 'amount' }, [word]) : word,
  ]);
}
