import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import encryption from '@adonisjs/core/services/encryption'
import db from '@adonisjs/lucid/services/db'
import { FeedsConfig } from '#feeds/define_config'
import { PushSignatures } from '#feeds/push_signatures'
import { deriveKey, signTollboothRequest, stringToSign } from '#partner_verifier'
import { ManualClock } from '#tests/support/clock'
import { createFeed } from '#tests/support/feeds'
import { inGlobalTransaction } from '#tests/support/database'

const feedsConfig = await app.container.make(FeedsConfig)

/** The webhook_push test vector of docs/hosted-mirror.md, read from the page itself. */
async function pushVector() {
  const guide = await readFile(app.makePath('docs/hosted-mirror.md'), 'utf8')
  const table = guide.slice(guide.indexOf('### Test vector'), guide.indexOf('## `manual_upload`'))
  const value = (field: string) => {
    const match = new RegExp(`^\\| ${field}\\s+\\| \`([^\`]+)\``, 'm').exec(table)
    if (!match) throw new Error(`docs/hosted-mirror.md's test vector has no ${field}`)
    return match[1]
  }
  return {
    secret: value('secret'),
    keyHex: value('K \\(hex\\)'),
    method: value('method'),
    path: value('path'),
    timestamp: Number(value('timestamp')),
    id: value('id'),
    body: value('body'),
    bodyHash: value('body hash'),
    signature: value('signature'),
  }
}

test.group('The Hosted Mirror guide’s push test vector', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('is what the shipped signer computes', async ({ assert }) => {
    const vector = await pushVector()

    assert.equal(deriveKey(vector.secret).toString('hex'), vector.keyHex)
    const signed = stringToSign({ ...vector, pathAndQuery: vector.path })
    assert.isTrue(signed.endsWith(`\n${vector.bodyHash}`))
    const headers = signTollboothRequest({
      ...vector,
      pathAndQuery: vector.path,
      provider: 'acme-data',
    })
    assert.equal(headers['x-tollbooth-signature'], `v1=${vector.signature}`)
  })

  test('is accepted by Tollbooth for a feed holding that push secret, once', async ({ assert }) => {
    const vector = await pushVector()
    const feed = await createFeed({
      slug: 'btc-price',
      sourceType: 'webhook_push',
      pushKeyEncrypted: encryption.encrypt(deriveKey(vector.secret).toString('base64')),
    })
    const signatures = new PushSignatures(new ManualClock(vector.timestamp * 1000), feedsConfig)
    const push = {
      method: vector.method,
      url: vector.path,
      body: vector.body,
      headers: {
        'x-tollbooth-id': vector.id,
        'x-tollbooth-timestamp': String(vector.timestamp),
        'x-tollbooth-provider': 'acme-data',
        'x-tollbooth-signature': `v1=${vector.signature}`,
      },
    }

    const verified = await signatures.verify(feed, 'acme-data', push)
    assert.equal(verified.id, vector.id)
    await db.transaction((trx) => signatures.remember(feed.id, verified, trx))

    await assert.rejects(
      () => db.transaction((trx) => signatures.remember(feed.id, verified, trx)),
      /already accepted/
    )
  })
})
