import { test } from '@japa/runner'
import { defineFixture, respond } from '../src/fixture.js'
import { FIXTURES } from '../src/fixtures/index.js'
import { UpstreamSimulator } from '../src/upstream_simulator.js'
import { SIMULATED_UPSTREAMS } from '../src/upstreams.js'
import { manualTimer, settledFlag } from './helpers.js'

const NOW = 1_795_300_000_000

/** A small upstream, to check the server's plumbing apart from the real fixtures. */
const probe = defineFixture({
  upstream: 'github',
  docs: 'https://docs.github.com/en/rest',
  routes: [
    {
      method: 'GET',
      path: '/repos/:owner/:repo',
      handle: ({ params, query }) => ({ ...params, page: query.get('page') }),
    },
    { method: 'POST', path: '/echo', handle: ({ body }) => ({ received: body }) },
    { method: 'GET', path: '/missing', handle: () => respond(404, { message: 'Not Found' }) },
    {
      method: 'GET',
      path: '/random',
      handle: (_request, clock) => ({ now: clock.now(), value: clock.random('key') }),
    },
  ],
})

test.group('Upstream simulator', (group) => {
  let simulator: UpstreamSimulator
  let now = NOW
  let hangTimer: ReturnType<typeof manualTimer>
  group.each.setup(async () => {
    now = NOW
    hangTimer = manualTimer()
    simulator = await new UpstreamSimulator({
      fixtures: [probe],
      now: () => now,
      hangMs: 150,
      hangTimer: hangTimer.schedule,
    }).listen()
    return () => simulator.close()
  })

  const get = async (path: string, init?: RequestInit) => {
    const response = await fetch(`${simulator.url}${path}`, init)
    return { status: response.status, text: await response.text() }
  }
  const statusOf = async (path: string) => {
    const response = await get(path)
    return response.status
  }
  const jsonOf = async (path: string) => {
    const response = await get(path)
    return JSON.parse(response.text)
  }

  test('answers a route under its upstream prefix with decoded params and the query', async ({
    assert,
  }) => {
    const response = await get('/github/repos/stacks-network/stacks%20core?page=2')
    assert.equal(response.status, 200)
    assert.deepEqual(JSON.parse(response.text), {
      owner: 'stacks-network',
      repo: 'stacks core',
      page: '2',
    })
  })

  test('a POST route reads the JSON body; a body that is not JSON is a 400', async ({ assert }) => {
    const echoed = await get('/github/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ proposals }' }),
    })
    assert.deepEqual(JSON.parse(echoed.text), { received: { query: '{ proposals }' } })

    const invalid = await get('/github/echo', { method: 'POST', body: '{nope' })
    assert.equal(invalid.status, 400)
  })

  test('respond() answers another status; unknown routes, methods and upstreams are 404', async ({
    assert,
  }) => {
    const missing = await get('/github/missing')
    assert.equal(missing.status, 404)
    assert.deepEqual(JSON.parse(missing.text), { message: 'Not Found' })

    for (const path of ['/github/nowhere', '/mempool/repos/a/b']) {
      const response = await get(path)
      assert.equal(response.status, 404, path)
      assert.match(JSON.parse(response.text).error, /^no simulated route for GET /)
    }
    assert.equal(await statusOf('/github/echo'), 404)
  })

  test('the clock is injected and random values hold within a bucket, then move', async ({
    assert,
  }) => {
    const first = await jsonOf('/github/random')
    const again = await jsonOf('/github/random')
    assert.deepEqual(again, first)
    assert.equal(first.now, NOW)
    assert.isAtLeast(first.value, 0)
    assert.isBelow(first.value, 1)

    now = NOW + 60_000
    const later = await jsonOf('/github/random')
    assert.notEqual(later.value, first.value)
  })

  test('status faults answer the next calls to one upstream only, then it recovers', async ({
    assert,
  }) => {
    simulator.failNext('github', 'status_503', 2)
    simulator.failNext('mempool', 'status_500')

    assert.equal(await statusOf('/github/repos/a/b'), 503)
    assert.equal(await statusOf('/github/repos/a/b'), 503)
    assert.equal(await statusOf('/github/repos/a/b'), 200)
    assert.equal(await statusOf('/mempool/anything'), 500)
  })

  test('malformed JSON and schema drift answer 200 with the wrong body', async ({ assert }) => {
    simulator.failNext('github', 'malformed_json')
    simulator.failNext('github', 'schema_drift')

    const malformed = await get('/github/repos/a/b')
    assert.equal(malformed.status, 200)
    assert.throws(() => JSON.parse(malformed.text))

    const drifted = await get('/github/repos/a/b')
    assert.deepEqual(JSON.parse(drifted.text), { unexpected: 'shape', data: null })
  })

  test('a timeout fault drops the connection after hangMs without answering', async ({
    assert,
  }) => {
    simulator.failNext('github', 'timeout')

    const hung = fetch(`${simulator.url}/github/repos/a/b`)
    const settled = settledFlag(hung)
    await simulator.held()
    assert.deepEqual(hangTimer.pending(), [150])
    assert.equal(await statusOf('/github/repos/a/b'), 200)
    assert.isFalse(settled())

    hangTimer.fire()
    await assert.rejects(() => hung)
  })

  test('clearFaults() drops every queued fault', async ({ assert }) => {
    simulator.failNext('github', 'status_500', 3)
    simulator.clearFaults()
    assert.equal(await statusOf('/github/repos/a/b'), 200)
  })
})

test.group('Upstream simulator fixtures', () => {
  test('every simulated upstream has routes, and every fixture names one of them', ({ assert }) => {
    const served = new Set(FIXTURES.map((fixture) => fixture.upstream))
    assert.sameMembers([...served], [...SIMULATED_UPSTREAMS])
    for (const fixture of FIXTURES) {
      assert.isAbove(fixture.routes.length, 0, fixture.upstream)
      assert.match(fixture.docs, /^https:\/\//, fixture.upstream)
    }
  })

  test('the default fixtures answer in the real format', async ({ assert, cleanup }) => {
    const simulator = await new UpstreamSimulator({ now: () => NOW }).listen()
    cleanup(() => simulator.close())

    const response = await fetch(`${simulator.url}/mempool/api/v1/fees/recommended`)
    assert.equal(response.status, 200)
    assert.properties(await response.json(), [
      'fastestFee',
      'halfHourFee',
      'hourFee',
      'economyFee',
      'minimumFee',
    ])
  })

  test('closing drops connections held by a timeout fault', async ({ assert }) => {
    const hangTimer = manualTimer()
    const simulator = await new UpstreamSimulator({ hangTimer: hangTimer.schedule }).listen()
    simulator.failNext('mempool', 'timeout')

    const hung = fetch(`${simulator.url}/mempool/api/v1/fees/recommended`)
    await simulator.held()
    await simulator.close()

    await assert.rejects(() => hung)
    assert.deepEqual(hangTimer.pending(), [])
  })
})
