import { test } from '@japa/runner'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  type LocalSite,
  sendJson,
  startLocalSite,
  useLocalSiteClient,
} from '#tests/support/local_site'
import { expectStatus, newOwner, registerProvider } from '#tests/support/providers'
import { inGlobalTransaction } from '#tests/support/database'

const MANIFEST_PATH = '/.well-known/tollbooth-feeds.json'

test.group('Editing a provider profile', (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the owner edits each field; the private and public views show it', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const url = `/providers/id/${provider.id}`
    const edits = {
      display_name: 'Acme Market Data',
      description: 'Depth and trades from our matching engine',
      website: 'https://data.acme.example',
      x_account: '@acme_data',
    }

    for (const [field, value] of Object.entries(edits)) {
      const response = await client
        .patch(url)
        .bearerToken(owner.token)
        .json({ [field]: value })
      response.assertStatus(200)
      assert.equal(response.body().provider[field], value)
    }

    const view = await client.get(url).bearerToken(owner.token)
    assert.containsSubset(view.body().provider, { ...edits, handle: 'acme-data', id: provider.id })
    assert.lengthOf(view.body().provider.feeds, 1)
    const profile = await client.get('/providers/acme-data')
    assert.containsSubset(profile.body(), edits)
  })

  test('null or an empty string clears the website, the X account and the description', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)

    const response = await client
      .patch(`/providers/id/${provider.id}`)
      .bearerToken(owner.token)
      .json({ website: null, x_account: '', description: '' })

    response.assertStatus(200)
    assert.containsSubset(response.body().provider, {
      website: null,
      x_account: null,
      description: '',
      display_name: 'Acme Data',
    })
  })

  test('an invalid website or X account is refused with its code and changes nothing', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const url = `/providers/id/${provider.id}`

    for (const website of ['javascript:alert(1)', 'https://user:secret@acme.example', 'acme']) {
      const response = await client
        .patch(url)
        .bearerToken(owner.token)
        .json({ website, display_name: 'Renamed' })
      response.assertStatus(422)
      assert.equal(response.body().error.code, 'invalid_website')
    }
    for (const xAccount of ['acme', '@', '@this_name_is_too_long']) {
      const response = await client
        .patch(url)
        .bearerToken(owner.token)
        .json({ x_account: xAccount })
      response.assertStatus(422)
      assert.containsSubset(response.body().error, {
        code: 'validation_failed',
        fields: [{ field: 'x_account', rule: 'regex' }],
      })
    }
    for (const displayName of ['  ', null]) {
      const blank = await client
        .patch(url)
        .bearerToken(owner.token)
        .json({ display_name: displayName })
      blank.assertStatus(422)
      assert.containsSubset(blank.body().error.fields, [
        { field: 'display_name', rule: 'required' },
      ])
    }

    const view = await client.get(url).bearerToken(owner.token)
    assert.containsSubset(view.body().provider, {
      display_name: 'Acme Data',
      website: 'https://acme.example',
      x_account: '@acme',
    })
  })

  test('a body naming no editable field is 422 nothing_to_update, listing them', async ({
    client,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const message =
      'No known field to update; allowed: display_name, description, website, x_account'

    for (const body of [{ handle: 'renamed', partner_endpoint: 'https://x.example' }, {}]) {
      const response = await client
        .patch(`/providers/id/${provider.id}`)
        .bearerToken(owner.token)
        .json(body)
      response.assertStatus(422)
      response.assertBody({
        error: {
          code: 'nothing_to_update',
          message,
          fields: [{ field: '', rule: 'nothing_to_update', message }],
          request_id: response.header('x-request-id'),
        },
      })
    }
  })

  test("another wallet's edit is 403 not_owner, without a session 401", async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const intruder = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token)
    const url = `/providers/id/${provider.id}`

    const foreign = await client
      .patch(url)
      .bearerToken(intruder.token)
      .json({ display_name: 'Mine' })
    foreign.assertStatus(403)
    assert.equal(foreign.body().error.code, 'not_owner')
    await expectStatus(client.patch(url).json({ display_name: 'Mine' }), 401)
    const unknown = await client
      .patch('/providers/id/00000000-0000-4000-8000-000000000000')
      .bearerToken(owner.token)
      .json({ display_name: 'Mine' })
    unknown.assertStatus(404)
    assert.equal(unknown.body().error.code, 'provider_not_found')

    const view = await client.get(url).bearerToken(owner.token)
    assert.equal(view.body().provider.display_name, 'Acme Data')
  })
})

test.group('Editing a provider profile: the website and the manifest', (group) => {
  let site: LocalSite | undefined

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(() => {
    const outbound = useLocalSiteClient()
    return async () => {
      await site?.close()
      site = undefined
      await outbound.restore()
    }
  })

  test('a provider registered without a website adds one and its manifest is found', async ({
    client,
    assert,
  }) => {
    const owner = await newOwner(client)
    const { provider } = await registerProvider(client, owner.token, { website: undefined })
    site = await startLocalSite((request: IncomingMessage, response: ServerResponse) => {
      if (request.url !== MANIFEST_PATH) return sendJson(response, { error: 'not found' }, 404)
      sendJson(response, { version: '1', provider: { handle: 'acme-data' } })
    })

    const before = await client.get('/providers/acme-data/manifest')
    assert.isFalse(before.body().independence_attestation.well_known_manifest_present)
    assert.containsSubset(before.body().checks, [
      { name: 'manifest_present', ok: false, detail: 'no website registered' },
    ])

    await expectStatus(
      client
        .patch(`/providers/id/${provider.id}`)
        .bearerToken(owner.token)
        .json({ website: site.origin }),
      200
    )

    const after = await client.get('/providers/acme-data/manifest')
    assert.equal(after.body().website, site.origin)
    assert.isTrue(after.body().independence_attestation.well_known_manifest_present)
    assert.containsSubset(after.body().checks, [
      { name: 'version', ok: true },
      { name: 'provider_handle', ok: true },
    ])
  })
})
