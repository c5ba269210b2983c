import { stx } from '../lib/money'
import type { DayFigures } from './types'

const WIDTH = 640
const HEIGHT = 220
const TOP = 16
const BOTTOM = 36
const LEFT = 8

/** Mon 3 */
function dayLabel(day: string) {
  const date = new Date(`${day}T00:00:00Z`)
  return date.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', timeZone: 'UTC' })
}

/**
 * The 7 days of the analytics (queries and revenue per UTC day) as paired
 * bars, each series on its own scale; the numbers are in a table for screen
 * readers and for anyone who wants them exact.
 */
export function WeekChart({ days }: { days: DayFigures[] }) {
  const peakQueries = Math.max(0, ...days.map((day) => day.queries))
  const peakRevenue = Math.max(0, ...days.map((day) => day.revenue_microstx))
  const maxQueries = Math.max(1, peakQueries)
  const maxRevenue = Math.max(1, peakRevenue)
  const slot = (WIDTH - LEFT * 2) / days.length
  const bar = Math.min(26, slot / 3)
  const plot = HEIGHT - TOP - BOTTOM
  return (
    <figure style="margin:0">
      <svg
        class="chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="week-chart-title"
      >
        <title id="week-chart-title">Queries and revenue over the last 7 days</title>
        {[0, 0.5, 1].map((fraction) => (
          <line
            key={fraction}
            class="grid"
            x1={LEFT}
            x2={WIDTH - LEFT}
            y1={TOP + plot * (1 - fraction)}
            y2={TOP + plot * (1 - fraction)}
          />
        ))}
        {days.map((day, index) => {
          const x = LEFT + slot * index + slot / 2
          const queries = (day.queries / maxQueries) * plot
          const revenue = (day.revenue_microstx / maxRevenue) * plot
          return (
            <g key={day.day}>
              <rect
                class="bar-q"
                x={x - bar - 2}
                y={TOP + plot - queries}
                width={bar}
                height={Math.max(queries, 1)}
                rx="3"
              />
              <rect
                class="bar-r"
                x={x + 2}
                y={TOP + plot - revenue}
                width={bar}
                height={Math.max(revenue, 1)}
                rx="3"
              />
              <text x={x} y={HEIGHT - 14} text-anchor="middle">
                {dayLabel(day.day)}
              </text>
            </g>
          )
        })}
      </svg>
      <figcaption class="legend">
        <span>Queries (peak {peakQueries} a day)</span>
        <span class="rev">Revenue (peak {stx(peakRevenue)} a day)</span>
      </figcaption>
      <details style="margin-top:8px">
        <summary class="small muted">The numbers</summary>
        <div class="table-wrap" style="margin-top:8px">
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col" class="num">
                  Queries
                </th>
                <th scope="col" class="num">
                  Revenue
                </th>
                <th scope="col" class="num">
                  Buyers
                </th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.day}>
                  <td>{day.day}</td>
                  <td class="num">{day.queries}</td>
                  <td class="num">{stx(day.revenue_microstx)}</td>
                  <td class="num">{day.unique_buyers}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  )
}
