import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import fc from 'fast-check'
import { bodyAround, callAtTheEdge, fuzz, useFuzzGroup } from '#tests/support/fuzz'
import { useLoopbackOnlyOutbound } from '#tests/support/outbound'
import { newOwner, registerProvider, urlMirrorRegistration } from '#tests/support/providers'

const MIRRORED_URL = 'http://127.0.0.1:1/prices.json'

/** A valid source of each Hosted Mirror type (nothing answers at the URLs: a first poll fails). */
const SOURCES: Array<{ type: string; [setting: string]: unknown }> = [
  { type: 'codehost_raw', url: MIRRORED_URL, poll_interval_seconds: 60 },
  {
    type: 'objectstore_url',
    url: 'http://127.0.0.1:1/bucket/prices.json?X-Amz-Signature=abc',
    poll_interval_seconds: 3600,
  },
  { type: 'webhook_push' },
  { type: 'manual_upload' },
]

type Source = (typeof SOURCES)[number]
const FUZZED_SOURCE = '"fuzzed-source"'

/**
 * Bodies near a valid one built on each of the four sources: mostly with
 * only the source object fuzzed, in place (bodyAround does not reach into
 * arrays such as feeds[]), else the whole body.
 */
function aroundEachSource(valid: (source: Source | string) => Record<string, unknown>) {
  return fc.constantFrom(...SOURCES).chain((source) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: bodyAround(source).map((text) =>
          JSON.stringify(valid(JSON.parse(FUZZED_SOURCE))).replace(FUZZED_SOURCE, text)
        ),
      },
      { weight: 1, arbitrary: bodyAround(valid(source)) }
    )
  )
}

/** Stands for the new feed's slug in a fuzzed body; each run swaps in an unused one. */
const NEW_SLUG = 'fuzzed-new-feed'

/**
 * The `source` object of FEED for the four Hosted Mirror types, where an
 * owner gives it: a new feed, a feed's PATCH (switching its type), and a
 * switch to Hosted Mirror (`feeds[].source`). A declared answer, and a
 * refusal writes nothing.
 */
test.group('Fuzzing | Hosted Mirror sources in FEED', (group) => {
  useFuzzGroup(group)
  group.each.setup(() => useLoopbackOnlyOutbound())

  /** A Hosted Mirror provider whose feed `prices` mirrors MIRRORED_URL: its owner's token and feeds path. */
  async function registerUrlMirror(client: ApiClient) {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(
      client,
      owner.token,
      urlMirrorRegistration(MIRRORED_URL)
    )
    return { token: owner.token, feeds: `/providers/id/${provider.id}/feeds` }
  }

  test('POST /providers/id/:id/feeds', async ({ client }) => {
    const { token, feeds } = await registerUrlMirror(client)
    const bodies = aroundEachSource((source) => ({
      slug: NEW_SLUG,
      display_name: 'New',
      price_stx: '0.005',
      source,
    }))
    let created = 0

    await fuzz(bodies, async (text) => {
      // A fresh slug per run, so an accepted feed does not make the next valid body slug_taken.
      const body = text.replace(`"${NEW_SLUG}"`, `"${NEW_SLUG}-${++created}"`)
      await callAtTheEdge('POST', feeds, { body, token }, body)
    })
  })

  test('PATCH /providers/id/:id/feeds/:slug', async ({ client }) => {
    const { token, feeds } = await registerUrlMirror(client)
    const bodies = aroundEachSource((source) => ({ display_name: 'Prices', source }))

    await fuzz(bodies, async (body) => {
      await callAtTheEdge('PATCH', `${feeds}/prices`, { body, token }, body)
    })
  })

  test('POST /providers/id/:id/mode from Partner Bridge, with feeds[].source', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const path = `/providers/id/${provider.id}/mode`
    const bodies = aroundEachSource((source) => ({
      integration_mode: 'hosted_mirror',
      feeds: [{ slug: 'btc-price', source }],
    }))

    await fuzz(bodies, async (body) => {
      const answer = await callAtTheEdge('POST', path, { body, token: owner.token }, body)
      if (answer.status !== 200) return
      // Back to Partner Bridge, so the next body switches again instead of answering mode_unchanged.
      const back = await client
        .post(path)
        .bearerToken(owner.token)
        .json({
          integration_mode: 'partner_bridge',
          partner_endpoint: 'http://127.0.0.1:9',
          feeds: [{ slug: 'btc-price', source_path: '/v1/prices' }],
        })
      assert.equal(back.status(), 200, back.text())
    })
  })
})
