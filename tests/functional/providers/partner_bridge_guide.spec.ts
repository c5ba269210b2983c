import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import { partnerPathFor } from '#feeds/partner_bridge/partner_request'
import { newOwner, postRegistration } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

/** The example of docs/partner-bridge.md's "The call", as a partner would copy it. */
async function guideExample() {
  const guide = await readFile(app.makePath('docs/partner-bridge.md'), 'utf8')
  const call = guide.slice(guide.indexOf('## The call'), guide.indexOf('## The signature'))
  const find = (pattern: RegExp) => {
    const match = pattern.exec(call)
    if (!match) throw new Error(`docs/partner-bridge.md no longer matches ${pattern}`)
    return match.slice(1)
  }
  const [partnerEndpoint] = find(/`partner_endpoint` `([^`]+)`/)
  const [sourcePath] = find(/`source_path` `([^`]+)`/)
  const [refusedPath] = find(/`([^`]+)` — is refused with `invalid_source_path`/)
  const [forwardQuery, buyerRequest, partnerCall] = find(
    /`forward_query` `([^`]+)`, a buyer asking\s+`([^`]+)` makes Tollbooth call\s+`([^`]+)`/
  )
  return {
    partnerEndpoint,
    sourcePath,
    refusedPath,
    forwardQuery: JSON.parse(forwardQuery) as string[],
    buyerQuery: Object.fromEntries(new URL(buyerRequest, 'http://x').searchParams),
    partnerCall,
  }
}

test.group('The Partner Bridge guide’s example', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('registers as written, and is called at the path the guide shows', async ({
    client,
    assert,
  }) => {
    const example = await guideExample()
    const owner = await newOwner(client)

    const response = await postRegistration(client, owner.token, {
      partner_endpoint: example.partnerEndpoint,
      feed: {
        slug: 'btc-price',
        display_name: 'BTC price',
        price_stx: '0.005',
        source_path: example.sourcePath,
        forward_query: example.forwardQuery,
      },
    })

    assert.equal(response.status(), 201, response.text())
    assert.equal(response.body().feed.source_path, example.sourcePath)
    assert.equal(
      partnerPathFor(
        { source_path: example.sourcePath, forward_query: example.forwardQuery },
        example.buyerQuery
      ),
      example.partnerCall
    )
  })

  test('the source_path it says is refused is refused', async ({ client, assert }) => {
    const example = await guideExample()
    const owner = await newOwner(client)

    const response = await postRegistration(client, owner.token, {
      feed: {
        slug: 'btc-price',
        display_name: 'BTC price',
        price_stx: '0.005',
        source_path: example.refusedPath,
      },
    })

    assert.equal(response.status(), 422, response.text())
    assert.equal(response.body().error.code, 'invalid_source_path')
  })
})
