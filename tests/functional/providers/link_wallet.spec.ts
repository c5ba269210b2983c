import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { privateKeyToAddress, privateKeyToPublic, randomPrivateKey } from '@stacks/transactions'
import { ProvidersConfig } from '#provider_accounts/define_config'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { registerProvider } from '#tests/support/providers'
import { signIn, signMessage, walletOf } from '#tests/support/sign_in'
import { changeConfig } from '#tests/support/config'
import { inGlobalTransaction } from '#tests/support/database'

const MINUTE = 60_000
const HOLD_MS = 90 * MINUTE

interface Challenge {
  nonce: string
  message: string
  expires_at: string
}

interface Owner {
  key: string
  token: string
  walletAddress: string
  providerId: string
}

/** A wallet (key and address) that is not signed in anywhere. */
function newWallet() {
  const key = randomPrivateKey()
  return { key, address: walletOf(key) }
}

/** A signed-in owner and the provider it registered (handle acme-data unless given). */
async function registeredOwner(client: ApiClient, handle = 'acme-data'): Promise<Owner> {
  const key = randomPrivateKey()
  const { token, walletAddress } = await signIn(client, key)
  const { provider } = await registerProvider(client, token, { handle })
  return { key, token, walletAddress, providerId: provider.id }
}

function askNonce(client: ApiClient, owner: Owner, address: string, token = owner.token) {
  return client
    .post(`/providers/id/${owner.providerId}/link-wallet/nonce`)
    .bearerToken(token)
    .json({ wallet_address: address })
}

async function challengesFor(client: ApiClient, owner: Owner, address: string) {
  const response = await askNonce(client, owner, address)
  response.assertStatus(200)
  return response.body() as Challenge & { owner_challenge: Challenge | null }
}

function postLink(client: ApiClient, owner: Owner, body: Record<string, unknown>) {
  return client
    .post(`/providers/id/${owner.providerId}/link-wallet`)
    .bearerToken(owner.token)
    .json(body)
}

/** The new wallet's signed challenge, as POST …/link-wallet takes it. */
function walletAnswer(address: string, key: string, challenge: Challenge) {
  return {
    wallet_address: address,
    nonce: challenge.nonce,
    signature: signMessage(challenge.message, key),
  }
}

/** The owner's signed consent, as POST …/link-wallet takes it. */
function ownerAnswer(key: string, challenge: Challenge) {
  return { owner_nonce: challenge.nonce, owner_signature: signMessage(challenge.message, key) }
}

/** Links `wallet` the way a client does: ask, sign what was issued (the owner too, unless it is the owner wallet), send. */
async function link(client: ApiClient, owner: Owner, wallet: { key: string; address: string }) {
  const issued = await challengesFor(client, owner, wallet.address)
  const response = await postLink(client, owner, {
    ...walletAnswer(wallet.address, wallet.key, issued),
    ...(issued.owner_challenge ? ownerAnswer(owner.key, issued.owner_challenge) : {}),
  })
  response.assertStatus(200)
  return response.body() as {
    linked_withdrawal_wallet: string
    withdrawal_wallet_held_until: string | null
  }
}

async function providerView(client: ApiClient, owner: Owner) {
  const response = await client.get(`/providers/id/${owner.providerId}`).bearerToken(owner.token)
  response.assertStatus(200)
  return response.body().provider
}

async function linkedWallet(client: ApiClient, owner: Owner): Promise<string | null> {
  const provider = await providerView(client, owner)
  return provider.linked_withdrawal_wallet
}

async function sessionWorks(client: ApiClient, token: string) {
  const me = await client.get('/auth/me').bearerToken(token)
  return me.status() === 200
}

function assertRefused(
  response: { assertStatus(status: number): void; assertBodyContains(body: unknown): void },
  status: number,
  code: string
) {
  response.assertStatus(status)
  response.assertBodyContains({ error: { code } })
}

test.group('Linking a withdrawal wallet', (group) => {
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const manual = await useManualClock()
    clock = manual.clock
    const restoreHold = changeConfig(await app.container.make(ProvidersConfig), {
      withdrawalWalletHoldMs: HOLD_MS,
    })
    return () => {
      manual.restore()
      restoreHold()
    }
  })

  test("a first link of another wallet needs the owner wallet's approval naming it, and holds withdrawals", async ({
    client,
    assert,
  }) => {
    const owner = await registeredOwner(client)
    const otherSession = await signIn(client, owner.key)
    const wallet = newWallet()

    const issued = await challengesFor(client, owner, wallet.address)
    const approval = issued.owner_challenge!
    const walletSigned = walletAnswer(wallet.address, wallet.key, issued)

    assert.equal(issued.expires_at, new Date(clock.now() + 5 * MINUTE).toISOString())
    assert.include(
      issued.message,
      `\n${wallet.address}\n\nLink ${wallet.address} as the withdrawal wallet of Tollbooth provider acme-data.\n`
    )
    assert.include(
      approval.message,
      `\n${owner.walletAddress}\n\nApprove ${wallet.address} as the withdrawal wallet of Tollbooth provider acme-data.\n`
    )
    // The session alone (the new wallet being anyone's) links nothing.
    assertRefused(await postLink(client, owner, walletSigned), 403, 'owner_signature_required')
    assert.isNull(await linkedWallet(client, owner))

    const linked = await postLink(client, owner, {
      ...walletSigned,
      public_key: privateKeyToPublic(wallet.key),
      ...ownerAnswer(owner.key, approval),
    })

    const heldUntil = new Date(clock.now() + HOLD_MS).toISOString()
    linked.assertStatus(200)
    linked.assertBody({
      linked_withdrawal_wallet: wallet.address,
      withdrawal_wallet_held_until: heldUntil,
    })
    assert.containsSubset(await providerView(client, owner), {
      owner_wallet: owner.walletAddress,
      linked_withdrawal_wallet: wallet.address,
      withdrawal_wallet_held_until: heldUntil,
    })
    // The owner's key was present: a session it did not make loses its access.
    assertRefused(
      await client.get('/auth/me').bearerToken(otherSession.token),
      401,
      'unauthenticated'
    )
    assert.isTrue(await sessionWorks(client, owner.token))

    // The linked wallet gets no say over the provider: the owner stays the owner.
    const linkedWalletSession = await signIn(client, wallet.key)
    const asLinkedWallet = await client
      .get(`/providers/id/${owner.providerId}`)
      .bearerToken(linkedWalletSession.token)
    assertRefused(asLinkedWallet, 403, 'not_owner')
  })

  test('linking the owner wallet takes its one signature and holds nothing', async ({
    client,
    assert,
  }) => {
    const owner = await registeredOwner(client)
    // Held: another wallet was linked first. Its hold ends with it.
    await link(client, owner, newWallet())

    const issued = await challengesFor(client, owner, owner.walletAddress)
    const linked = await postLink(
      client,
      owner,
      walletAnswer(owner.walletAddress, owner.key, issued)
    )

    assert.isNull(issued.owner_challenge)
    linked.assertStatus(200)
    linked.assertBody({
      linked_withdrawal_wallet: owner.walletAddress,
      withdrawal_wallet_held_until: null,
    })
  })

  test("changing the linked wallet needs the owner wallet's approval naming the new address", async ({
    client,
    assert,
  }) => {
    const owner = await registeredOwner(client)
    const first = newWallet()
    const linkedFirst = await link(client, owner, first)
    const otherSession = await signIn(client, owner.key)
    const next = newWallet()

    const issued = await challengesFor(client, owner, next.address)
    const consent = issued.owner_challenge!
    const walletSigned = walletAnswer(next.address, next.key, issued)

    assert.include(
      consent.message,
      `\n${owner.walletAddress}\n\nApprove ${next.address} as the withdrawal wallet of Tollbooth provider acme-data.\n`
    )
    assertRefused(await postLink(client, owner, walletSigned), 403, 'owner_signature_required')
    assertRefused(
      await postLink(client, owner, { ...walletSigned, owner_nonce: consent.nonce }),
      403,
      'owner_signature_required'
    )
    assertRefused(
      await postLink(client, owner, {
        ...walletSigned,
        ...ownerAnswer(randomPrivateKey(), consent),
      }),
      401,
      'signature_invalid'
    )
    // The new wallet signing the owner's consent itself is no consent.
    assertRefused(
      await postLink(client, owner, { ...walletSigned, ...ownerAnswer(next.key, consent) }),
      401,
      'signature_invalid'
    )
    const elsewhere = await challengesFor(client, owner, newWallet().address)
    assertRefused(
      await postLink(client, owner, {
        ...walletSigned,
        ...ownerAnswer(owner.key, elsewhere.owner_challenge!),
      }),
      401,
      'challenge_not_found'
    )

    assert.containsSubset(await providerView(client, owner), linkedFirst)
    assert.isTrue(await sessionWorks(client, otherSession.token))

    // The same signed pair goes through once the owner has signed (the key as a hint is fine).
    const changed = await postLink(client, owner, {
      ...walletSigned,
      ...ownerAnswer(owner.key, consent),
      owner_public_key: privateKeyToPublic(owner.key),
    })
    changed.assertStatus(200)
    assert.equal(changed.body().linked_withdrawal_wallet, next.address)
  })

  test("a change holds withdrawals for the configured time and signs the owner's other sessions out", async ({
    client,
    assert,
  }) => {
    const owner = await registeredOwner(client)
    await link(client, owner, newWallet())
    const otherSession = await signIn(client, owner.key)
    const someoneElse = await signIn(client, randomPrivateKey())
    clock.advance(3 * MINUTE)
    const next = newWallet()

    const changed = await link(client, owner, next)

    const heldUntil = new Date(clock.now() + HOLD_MS).toISOString()
    assert.deepEqual(changed, {
      linked_withdrawal_wallet: next.address,
      withdrawal_wallet_held_until: heldUntil,
    })
    assert.containsSubset(await providerView(client, owner), {
      owner_wallet: owner.walletAddress,
      linked_withdrawal_wallet: next.address,
      withdrawal_wallet_held_until: heldUntil,
    })
    assertRefused(
      await client.get('/auth/me').bearerToken(otherSession.token),
      401,
      'unauthenticated'
    )
    assert.isTrue(await sessionWorks(client, owner.token))
    assert.isTrue(await sessionWorks(client, someoneElse.token))
  })

  test('linking the linked wallet again changes nothing', async ({ client, assert }) => {
    const owner = await registeredOwner(client)
    await link(client, owner, newWallet())
    const next = newWallet()
    const changed = await link(client, owner, next)
    const laterSession = await signIn(client, owner.key)
    clock.advance(60 * MINUTE)

    const again = await link(client, owner, next)

    assert.deepEqual(again, changed)
    assert.isTrue(await sessionWorks(client, laterSession.token))
  })

  test('a nonce links once', async ({ client }) => {
    const owner = await registeredOwner(client)
    const wallet = newWallet()
    const issued = await challengesFor(client, owner, wallet.address)
    const body = {
      ...walletAnswer(wallet.address, wallet.key, issued),
      ...ownerAnswer(owner.key, issued.owner_challenge!),
    }

    const first = await postLink(client, owner, body)
    const replayed = await postLink(client, owner, body)

    first.assertStatus(200)
    assertRefused(replayed, 401, 'challenge_used')
  })

  test("another key's signature links nothing", async ({ client, assert }) => {
    const owner = await registeredOwner(client)
    const wallet = newWallet()
    const issued = await challengesFor(client, owner, wallet.address)
    const mallory = randomPrivateKey()
    const approved = ownerAnswer(owner.key, issued.owner_challenge!)

    const forged = await postLink(client, owner, {
      ...walletAnswer(wallet.address, mallory, issued),
      ...approved,
    })
    const hinted = await postLink(client, owner, {
      ...walletAnswer(wallet.address, wallet.key, issued),
      public_key: privateKeyToPublic(mallory),
      ...approved,
    })

    assertRefused(forged, 401, 'signature_invalid')
    assertRefused(hinted, 401, 'signature_invalid')
    assert.isNull(await linkedWallet(client, owner))
  })

  test('a signed challenge links only what it names', async ({ client, assert }) => {
    const owner = await registeredOwner(client)
    const second = await registerProvider(client, owner.token, { handle: 'acme-two' })
    const ownerSecondProvider = { ...owner, providerId: second.provider.id }
    const wallet = newWallet()

    const signInChallenge = await client
      .post('/auth/nonce')
      .json({ wallet_address: wallet.address })
    const own = await challengesFor(client, owner, wallet.address)
    const approved = ownerAnswer(owner.key, own.owner_challenge!)
    const withSignInNonce = await postLink(client, owner, {
      ...walletAnswer(wallet.address, wallet.key, signInChallenge.body()),
      ...approved,
    })
    const forTheOtherProvider = await challengesFor(client, ownerSecondProvider, wallet.address)
    const withOtherProviderNonce = await postLink(client, owner, {
      ...walletAnswer(wallet.address, wallet.key, forTheOtherProvider),
      ...approved,
    })
    // Nor does the owner's approval given for the other provider.
    const withOtherProviderApproval = await postLink(client, owner, {
      ...walletAnswer(wallet.address, wallet.key, own),
      ...ownerAnswer(owner.key, forTheOtherProvider.owner_challenge!),
    })

    assertRefused(withSignInNonce, 401, 'challenge_not_found')
    assertRefused(withOtherProviderNonce, 401, 'challenge_not_found')
    assertRefused(withOtherProviderApproval, 401, 'challenge_not_found')
    assert.isNull(await linkedWallet(client, owner))
  })

  test('the wallet must be an address of the configured network', async ({ client, assert }) => {
    const owner = await registeredOwner(client)
    const key = randomPrivateKey()
    const mainnet = privateKeyToAddress(key, 'mainnet')

    const nonce = await askNonce(client, owner, mainnet)
    const linked = await postLink(client, owner, {
      wallet_address: mainnet,
      nonce: 'f'.repeat(32),
      signature: signMessage('anything', key),
    })

    for (const response of [nonce, linked]) {
      response.assertStatus(422)
      assert.deepEqual(response.body().error.fields, [
        {
          field: 'wallet_address',
          rule: 'stacksAddress',
          message: 'The wallet_address field must be a devnet address (ST…)',
        },
      ])
    }
    const challenges = await db.from('auth_challenges').where('purpose', 'link_wallet')
    assert.lengthOf(challenges, 0)
  })

  test("only the owner's session may link a wallet", async ({ client }) => {
    const owner = await registeredOwner(client)
    const stranger = await registeredOwner(client, 'stranger-data')
    const wallet = newWallet()
    const issued = await challengesFor(client, owner, wallet.address)
    const body = walletAnswer(wallet.address, wallet.key, issued)
    const unknownId = '00000000-0000-4000-8000-000000000000'

    assertRefused(await askNonce(client, owner, wallet.address, stranger.token), 403, 'not_owner')
    assertRefused(
      await postLink(client, { ...owner, token: stranger.token }, body),
      403,
      'not_owner'
    )
    assertRefused(
      await askNonce(client, { ...owner, providerId: unknownId }, wallet.address),
      404,
      'provider_not_found'
    )
    assertRefused(
      await postLink(client, { ...owner, providerId: unknownId }, body),
      404,
      'provider_not_found'
    )
    assertRefused(
      await client
        .post(`/providers/id/${owner.providerId}/link-wallet/nonce`)
        .json({ wallet_address: wallet.address }),
      401,
      'unauthenticated'
    )
    assertRefused(
      await client.post(`/providers/id/${owner.providerId}/link-wallet`).json(body),
      401,
      'unauthenticated'
    )
  })
})

/**
 * Without the test transaction: under it every statement runs on its one
 * connection, so a nonce consumed outside the linking transaction would be
 * rolled back with it all the same. Here each request commits; the rows are
 * removed afterwards.
 */
test.group('Linking a withdrawal wallet, committed', (group) => {
  const wallets: string[] = []
  const providerIds: string[] = []

  /** As in the concurrent sign-in group: end with a fresh pool for the final migration rollback. */
  group.teardown(() => db.manager.close(db.primaryConnectionName))

  group.each.teardown(async () => {
    await db.from('feeds').whereIn('provider_id', providerIds).delete()
    await db.from('providers').whereIn('id', providerIds).delete()
    await db.from('auth_challenges').whereIn('wallet_address', wallets).delete()
    await db.from('users').whereIn('wallet_address', wallets).delete()
    wallets.length = 0
    providerIds.length = 0
  })

  test('a refused change leaves both nonces usable and the provider as it was', async ({
    client,
    assert,
  }) => {
    const owner = await registeredOwner(client, 'committed-data')
    const [first, next] = [newWallet(), newWallet()]
    wallets.push(owner.walletAddress, first.address, next.address)
    providerIds.push(owner.providerId)
    await link(client, owner, first)
    const issued = await challengesFor(client, owner, next.address)
    const walletSigned = walletAnswer(next.address, next.key, issued)

    const refused = await postLink(client, owner, {
      ...walletSigned,
      ...ownerAnswer(randomPrivateKey(), issued.owner_challenge!),
    })

    assertRefused(refused, 401, 'signature_invalid')
    assert.equal(await linkedWallet(client, owner), first.address)
    const changed = await postLink(client, owner, {
      ...walletSigned,
      ...ownerAnswer(owner.key, issued.owner_challenge!),
    })
    changed.assertStatus(200)
    assert.equal(changed.body().linked_withdrawal_wallet, next.address)
  })
})
