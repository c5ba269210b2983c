import { request } from 'node:http'
import { test } from '@japa/runner'
import { startInstance } from '#tests/support/cluster'
import { metricValue, scrape } from '#tests/support/metrics'

/** A GET on a connection of its own: the cluster hands each new connection to the next worker. */
function getOnNewConnection(url: string) {
  return new Promise<number>((resolve, reject) => {
    request(url, { agent: false, headers: { connection: 'close' } }, (response) => {
      response.resume()
      response.once('end', () => resolve(response.statusCode!))
    })
      .once('error', reject)
      .end()
  })
}

test.group('npm start with 2 HTTP workers', () => {
  test('one scrape of /metrics sums the requests every worker answered', async ({
    assert,
    cleanup,
  }) => {
    const instance = await startInstance(2)
    cleanup(async () => {
      await instance.stop()
    })

    const statuses = []
    for (let n = 0; n < 10; n++)
      statuses.push(await getOnNewConnection(`${instance.url}/no-such-page`))
    const scraped = await scrape(instance.url)
    const exitCode = await instance.stop()

    assert.deepEqual(statuses, Array(10).fill(404))
    // Each worker answered some (round-robin): the scrape holds all 10, not one worker's half.
    assert.equal(
      metricValue(scraped, 'tollbooth_http_requests_total{route="unmatched",status="404"}'),
      10
    )
    // Every process answered the scrape: its own process metrics are there, by name.
    for (const name of ['web-1', 'web-2', 'scheduler']) {
      assert.isAbove(
        metricValue(scraped, `tollbooth_process_resident_memory_bytes{process="${name}"}`),
        0
      )
    }
    assert.equal(exitCode, 0)
  }).timeout(60_000)
})
