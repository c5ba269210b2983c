import cluster from 'node:cluster'
import { randomUUID } from 'node:crypto'
import { AggregatorRegistry } from 'prom-client'
import { registry } from '#metrics/registry'

/**
 * A scrape of GET /metrics reaches one worker; under `npm start` it asks the
 * primary, which asks every worker (the scheduler too) for its metrics
 * through prom-client's AggregatorRegistry and answers the sum: one scrape
 * sees the whole instance. A process outside that cluster (`node ace serve`,
 * the tests) answers its own.
 */
const REQUEST = 'tollbooth:metrics-request'
const ANSWER = 'tollbooth:metrics-answer'

interface ScrapeAnswer {
  type: typeof ANSWER
  id: string
  text?: string
  error?: string
}

export interface Scrape {
  contentType: string
  text: string
}

export async function scrapeMetrics(): Promise<Scrape> {
  const contentType = registry.contentType
  if (!cluster.isWorker || !process.env.TOLLBOOTH_PROCESS) {
    return { contentType, text: await registry.metrics() }
  }
  return { contentType, text: await askPrimary() }
}

function askPrimary(): Promise<string> {
  const id = randomUUID()
  return new Promise((resolve, reject) => {
    const listener = (message: ScrapeAnswer) => {
      if (message?.type !== ANSWER || message.id !== id) return
      process.off('message', listener)
      if (message.text === undefined) reject(new Error(`metrics of the cluster: ${message.error}`))
      else resolve(message.text)
    }
    process.on('message', listener)
    process.send!({ type: REQUEST, id })
  })
}

/** In the primary of bin/cluster_primary.ts: answers the workers' scrapes with the whole cluster's metrics. */
export function answerWorkerScrapes() {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== REQUEST) return
    const answer = (fields: Partial<ScrapeAnswer>) => {
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...fields })
    }
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: Error) => answer({ error: error.message })
    )
  })
}
