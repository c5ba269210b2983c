/**
 * The value of one sample (`name` with its labels, as Prometheus's text
 * format writes them: `tollbooth_paid_calls_total{outcome="paid",way="onchain"}`)
 * in a scrape; 0 when absent, as a counter not yet moved is.
 */
export function metricValue(text: string, sample: string) {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${sample} `))
  return line ? Number(line.slice(sample.length + 1)) : 0
}

/** GET /metrics of the instance at `baseUrl`, as a scraper reads it. */
export async function scrape(baseUrl: string) {
  const response = await fetch(`${baseUrl}/metrics`)
  return response.text()
}
