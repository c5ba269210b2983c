import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import { MetricsConfig } from '#metrics/define_config'
import { changeConfig } from '#tests/support/config'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import { metricValue } from '#tests/support/metrics'
import { forgetRateLimitCounts, setRateLimits } from '#tests/support/rate_limits'

const metricsConfig = await app.container.make(MetricsConfig)

async function scrape(client: ApiClient) {
  const response = await client.get('/metrics')
  response.assertStatus(200)
  return response.text()
}

test.group('GET /metrics', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 5_000 })
  const buyer = useBuyer(stack)

  test('a paid call moves the request, paid call, revenue and settlement metrics', async ({
    client,
    assert,
  }) => {
    const before = await scrape(client)
    const { response } = await buyer.pay(client, '/feeds/whale-alerts')
    response.assertStatus(200)
    const after = await scrape(client)

    const moved = (name: string) => metricValue(after, name) - metricValue(before, name)
    assert.equal(moved('tollbooth_paid_calls_total{outcome="paid",way="onchain"}'), 1)
    assert.equal(moved('tollbooth_revenue_microstx_total{way="onchain"}'), 5_000)
    assert.equal(moved('tollbooth_settlement_duration_seconds_count'), 1)
    // The quote (402) and the paid answer (200), by route pattern, never by feed.
    assert.equal(moved('tollbooth_http_requests_total{route="/feeds/:id",status="402"}'), 1)
    assert.equal(moved('tollbooth_http_requests_total{route="/feeds/:id",status="200"}'), 1)
    assert.notInclude(after, 'whale-alerts')
    assert.notInclude(after, stack.payTo)
    // Event-loop lag, from prom-client's default metrics, under the one prefix.
    assert.match(after, /^tollbooth_nodejs_eventloop_lag_seconds \d/m)
  })

  test('a refused payment is counted as refused, an unmatched route as unmatched', async ({
    client,
    assert,
  }) => {
    const before = await scrape(client)
    await client.get('/feeds/whale-alerts').header('payment-signature', 'not base64 json')
    await client.get('/no/such/route')
    const after = await scrape(client)

    const moved = (name: string) => metricValue(after, name) - metricValue(before, name)
    assert.equal(moved('tollbooth_paid_calls_total{outcome="refused",way="onchain"}'), 1)
    assert.equal(moved('tollbooth_http_requests_total{route="unmatched",status="404"}'), 1)
  })
})

test.group('GET /metrics: rate limits', () => {
  test('a request refused by a rate limit is counted under its limit', async ({
    client,
    assert,
    cleanup,
  }) => {
    await forgetRateLimitCounts()
    cleanup(setRateLimits({ signIn: 1 }))
    const before = await scrape(client)

    const answers = [
      await client.post('/auth/nonce').json({}),
      await client.post('/auth/nonce').json({}),
    ]
    const after = await scrape(client)

    assert.equal(answers[1].status(), 429)
    const sample = 'tollbooth_rate_limit_refusals_total{limit="signIn"}'
    assert.equal(metricValue(after, sample) - metricValue(before, sample), 1)
  })
})

test.group('GET /metrics access', (group) => {
  group.each.setup(() => changeConfig(metricsConfig, { token: 'scrape-token-0123456789' }))

  test('with METRICS_TOKEN set, only a scrape sending it as a bearer token gets the metrics', async ({
    client,
    assert,
  }) => {
    const without = await client.get('/metrics')
    const wrong = await client.get('/metrics').bearerToken('scrape-token-012345678X')
    const right = await client.get('/metrics').bearerToken('scrape-token-0123456789')

    without.assertStatus(401)
    assert.equal(without.body().error.code, 'metrics_token_invalid')
    wrong.assertStatus(401)
    for (const refused of [without, wrong])
      assert.equal(refused.header('www-authenticate'), 'Bearer')
    right.assertStatus(200)
    assert.isUndefined(right.header('www-authenticate'))
    assert.match(right.header('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
  })

  test('the scheme is case-insensitive, as HTTP authentication schemes are', async ({ client }) => {
    const response = await client
      .get('/metrics')
      .header('authorization', 'bearer scrape-token-0123456789')

    response.assertStatus(200)
  })

  test('in production without METRICS_TOKEN there is no /metrics', async ({ client, cleanup }) => {
    cleanup(changeConfig(metricsConfig, { token: undefined, openWithoutToken: false }))

    const response = await client.get('/metrics')

    response.assertStatus(404)
    response.assertBodyContains({ error: { code: 'route_not_found' } })
  })
})
