import { el, moneyOfMajor, svg } from '@raspa/browser-kit';
import type { Lang } from '@raspa/server/wire';
import type { Catalogue } from '../i18n/en.ts';
import { barLayout } from '../report/bar-layout.ts';
import type { DayPoint } from '../report/report-figures.ts';
import { table } from './blocks.ts';

const FRAME = { width: 720, height: 260, left: 84, right: 12, top: 12, bottom: 40 };

/** "03-05" from "2026-03-05": the axis has room for the day and month only. */
const shortDay = (day: string) => day.slice(5);

/**
 * The GGR of each day as bars drawn in an inline SVG (nothing fetched, no chart library): green above
 * the axis, red below, each bar titled with its day and amount. Screen readers get the chart's title
 * and summary, and the same figures as a real table under it.
 */
export function ggrChart(
  points: readonly DayPoint[],
  currency: string,
  t: Catalogue,
  lang: Lang,
): HTMLElement {
  const layout = barLayout(
    points.map((point) => point.ggr),
    FRAME,
  );
  const format = (value: number) => moneyOfMajor(value, currency, lang);
  const titleId = `chart-title-${currency}`;
  const total = points.reduce((sum, point) => sum + Math.round(point.ggr * 10_000), 0) / 10_000;
  const first = points[0]?.day ?? '';
  const last = points.at(-1)?.day ?? '';
  const label = t.overview.chartTitle(currency);
  const chart = svg(
    'svg',
    {
      viewBox: `0 0 ${FRAME.width} ${FRAME.height}`,
      role: 'img',
      'aria-labelledby': titleId,
      class: 'chart',
      preserveAspectRatio: 'xMinYMid meet',
    },
    [
      svg('title', { id: titleId }, [`${label}: ${t.overview.chartSummary(first, last, format(total))}`]),
      ...layout.ticks.flatMap((tick) => [
        svg('line', {
          x1: layout.plot.left,
          x2: layout.plot.left + layout.plot.width,
          y1: tick.y,
          y2: tick.y,
          class: tick.value === 0 ? 'axis' : 'grid',
        }),
        svg('text', { x: layout.plot.left - 6, y: tick.y + 4, 'text-anchor': 'end', class: 'tick' }, [
          format(tick.value),
        ]),
      ]),
      ...layout.bars.map((bar, index) => {
        const point = points[index] as DayPoint;
        return svg(
          'rect',
          {
            x: bar.x,
            y: bar.y,
            width: bar.width,
            height: Math.max(bar.height, bar.value === 0 ? 0 : 1),
            class: bar.negative ? 'bar loss' : 'bar gain',
          },
          [svg('title', {}, [`${point.day}: ${format(point.ggr)}`])],
        );
      }),
      // Every few days' label, so they never overlap on the axis.
      ...layout.bars
        .map((bar, index) => ({ bar, point: points[index] as DayPoint, index }))
        .filter(({ index }) => (points.length - 1 - index) % Math.ceil(points.length / 8) === 0)
        .map(({ bar, point }) =>
          svg(
            'text',
            {
              x: bar.x + bar.width / 2,
              y: FRAME.height - FRAME.bottom + 18,
              'text-anchor': 'middle',
              class: 'tick',
            },
            [shortDay(point.day)],
          ),
        ),
    ],
  );
  return el('figure', { class: 'chart-box' }, [
    el('figcaption', {}, [label]),
    // On a phone the chart keeps a readable size and scrolls sideways in its own box.
    el('div', { class: 'chart-scroll' }, [chart]),
    el('details', {}, [
      el('summary', {}, [t.overview.chartAsTable]),
      table(
        label,
        [
          [t.overview.day, (point: DayPoint) => point.day],
          [t.overview.ggr, (point: DayPoint) => format(point.ggr)],
        ],
        points,
        t.common.none,
      ),
    ]),
  ]);
}
