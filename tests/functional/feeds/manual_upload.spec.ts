import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { FeedsConfig, sources as driverFactories } from '#feeds/define_config'
import { changeConfig } from '#tests/support/config'
import sources from '#feeds/services/main'
import { useBuyer, usePaidCallStack } from '#tests/support/paid_calls'
import { rawCall } from '#tests/support/fuzz'
import { mirrorRegistration, newOwner, registerProvider } from '#tests/support/providers'

const FEED = '/feeds/p/mirror-co/rates'

/** manual_upload: the owner uploads a JSON document, which paid calls then serve. */
test.group('A manual_upload feed', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  const buyer = useBuyer(stack)

  async function registerUploadFeed(client: ApiClient) {
    const owner = await newOwner(client)
    const registered = await registerProvider(
      client,
      owner.token,
      mirrorRegistration({ type: 'manual_upload' }, 'rates')
    )
    const uploadPath = `/providers/id/${registered.provider.id}/feeds/rates/upload`
    return { owner, providerId: registered.provider.id, uploadPath, registered }
  }

  /** An upload as a browser or curl sends it: the raw body, with its content type. */
  async function upload(
    path: string,
    token: string,
    body: string,
    contentType = 'application/json'
  ) {
    const answer = await rawCall('POST', path, {
      body,
      token,
      headers: { 'content-type': contentType },
    })
    return { status: answer.status, body: answer.json as any }
  }

  function snapshotVersions() {
    return db
      .from('feed_snapshots')
      .join('feeds', 'feeds.id', 'feed_snapshots.feed_id')
      .where('feeds.slug', 'rates')
      .orderBy('version')
      .select('version', 'content_hash')
  }

  test('an upload becomes the snapshot a paid call serves, with its last_updated', async ({
    client,
    assert,
  }) => {
    const { owner, uploadPath, registered } = await registerUploadFeed(client)
    assert.notProperty(registered, 'push_secret')
    assert.notProperty(registered.feed!, 'push_url')

    const before = Date.now()
    const uploaded = await upload(uploadPath, owner.token, '{"EUR": 1.08, "GBP": 1.27}')
    assert.equal(uploaded.status, 200)
    assert.containsSubset(uploaded.body.snapshot, { version: 1, size_bytes: 26 })
    assert.isAtLeast(uploaded.body.snapshot.last_updated, before)

    const paid = await buyer.pay(client, FEED)
    paid.response.assertStatus(200)
    assert.deepEqual(paid.response.body().data, { EUR: 1.08, GBP: 1.27 })
    assert.equal(paid.response.body().last_updated, uploaded.body.snapshot.last_updated)
    assert.equal(paid.response.body().data_source, 'uploaded by its provider (Hosted Mirror)')

    const again = await upload(uploadPath, owner.token, '[{"EUR": 1.09}]')
    assert.equal(again.body.snapshot.version, 2)
    const repaid = await buyer.pay(client, FEED)
    assert.deepEqual(repaid.response.body().data, [{ EUR: 1.09 }])
  })

  test('an upload to a paused feed is kept for when it sells again', async ({ client, assert }) => {
    const { owner, providerId, uploadPath } = await registerUploadFeed(client)
    await client
      .patch(`/providers/id/${providerId}/feeds/rates/state`)
      .bearerToken(owner.token)
      .json({ active: false })

    const uploaded = await upload(uploadPath, owner.token, '{"EUR": 1.08}')

    assert.equal(uploaded.status, 200)
    assert.lengthOf(await snapshotVersions(), 1)
  })

  test('a refused upload changes nothing: {case}')
    .with([
      { case: 'text/plain', status: 415, code: 'unsupported_media_type' },
      { case: 'invalid JSON', status: 400, code: 'invalid_json' },
      { case: 'a JSON number', status: 422, code: 'not_a_json_document' },
      { case: 'null', status: 422, code: 'not_a_json_document' },
      { case: 'an unpaired surrogate', status: 422, code: 'not_a_json_document' },
      { case: 'over 1 MB', status: 413, code: 'request_entity_too_large' },
      { case: 'another wallet', status: 403, code: 'not_owner' },
      { case: 'no session', status: 401, code: 'unauthenticated' },
      { case: 'a feed that is not manual_upload', status: 409, code: 'not_an_upload_feed' },
      { case: 'an unknown feed', status: 404, code: 'feed_not_found' },
    ])
    .run(async ({ client, assert }, { case: refusal, status, code }) => {
      const { owner, providerId, uploadPath } = await registerUploadFeed(client)
      const first = await upload(uploadPath, owner.token, '{"EUR": 1.08}')
      assert.equal(first.status, 200)
      const before = await snapshotVersions()
      const feedsPath = `/providers/id/${providerId}/feeds`

      const refused = await (async () => {
        switch (refusal) {
          case 'text/plain':
            return upload(uploadPath, owner.token, '{"EUR": 1}', 'text/plain')
          case 'invalid JSON':
            return upload(uploadPath, owner.token, '{"EUR": ')
          case 'a JSON number':
            return upload(uploadPath, owner.token, '42')
          case 'null':
            return upload(uploadPath, owner.token, 'null')
          case 'an unpaired surrogate':
            return upload(uploadPath, owner.token, '{"EUR": "\\udc00"}')
          case 'over 1 MB':
            return upload(uploadPath, owner.token, JSON.stringify({ blob: 'x'.repeat(1_100_000) }))
          case 'another wallet': {
            const stranger = await newOwner(client)
            return upload(uploadPath, stranger.token, '{"EUR": 1}')
          }
          case 'no session':
            return upload(uploadPath, '', '{"EUR": 1}')
          case 'a feed that is not manual_upload': {
            const created = await client
              .post(feedsPath)
              .bearerToken(owner.token)
              .json({
                slug: 'pushed',
                display_name: 'Pushed',
                price_stx: '0.005',
                source: { type: 'webhook_push' },
              })
            created.assertStatus(201)
            return upload(`${feedsPath}/pushed/upload`, owner.token, '{"EUR": 1}')
          }
          case 'an unknown feed':
            return upload(`${feedsPath}/nope/upload`, owner.token, '{"EUR": 1}')
          default:
            throw new Error(`no case ${refusal}`)
        }
      })()

      assert.equal(refused.status, status, JSON.stringify(refused.body))
      assert.equal(refused.body.error.code, code)
      assert.deepEqual(await snapshotVersions(), before)
    })

  test('a document over the source type’s cap is refused; the last N versions are kept', async ({
    client,
    assert,
  }) => {
    sources.fake('manual_upload', driverFactories.received({ via: 'upload', maxBytes: 32 }))
    const { snapshots } = await app.container.make(FeedsConfig)
    const restoreKeep = changeConfig(snapshots, { keep: 3 })
    try {
      const { owner, uploadPath } = await registerUploadFeed(client)
      const tooLarge = await upload(
        uploadPath,
        owner.token,
        JSON.stringify({ pad: 'x'.repeat(30) })
      )
      assert.equal(tooLarge.status, 413)
      assert.equal(tooLarge.body.error.code, 'document_too_large')
      assert.lengthOf(await snapshotVersions(), 0)

      for (const rate of [1, 2, 3, 4, 5]) {
        const uploaded = await upload(uploadPath, owner.token, `{"EUR": ${rate}}`)
        assert.equal(uploaded.status, 200)
      }
      const kept = await snapshotVersions()
      assert.deepEqual(
        kept.map((row) => row.version),
        [3, 4, 5]
      )
    } finally {
      restoreKeep()
      await sources.restore('manual_upload')
    }
  })
})
