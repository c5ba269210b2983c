import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import { DEVNET_ACCOUNTS } from '@tollbooth/devnet'
import { pointAppAtDevnet } from '#tests/support/chain'
import { pointBuiltinFeedsAtSimulator } from '#tests/support/paid_calls'
import { type PartnerServer, startPartnerServer } from '#tests/support/partner_server'
import { buyFeed } from '#tests/support/paid_calls_over_http'
import { registerProvider } from '#tests/support/providers'
import { signIn } from '#tests/support/sign_in'
import {
  eventually,
  pollQuickly,
  rememberWalletChoice,
  screenshot,
  signInThroughPage,
  useBrowser,
} from '#tests/support/browser'

test.group('A paid call, seen from the pages', (group) => {
  const { session, setWallet } = useBrowser(group)
  let partner: PartnerServer

  let devnetUrl = ''

  group.each.setup(async () => {
    const chain = await pointAppAtDevnet({ blockTimeMs: 0 })
    devnetUrl = chain.devnet.url
    const builtin = await pointBuiltinFeedsAtSimulator()
    partner = await startPartnerServer({ routes: ['/v1/prices'] })
    const restorePolls = pollQuickly()
    return async () => {
      restorePolls()
      await builtin.restore()
      await partner.close()
      await chain.cleanup()
    }
  })

  test("shows on the provider's dashboard and in the live activity feed without a reload", async ({
    client,
    assert,
  }) => {
    const ownerKey = randomPrivateKey()
    const { token } = await signIn(client, ownerKey)
    const { provider, hmac_secret: secret } = await registerProvider(client, token, {
      handle: 'acme-data',
      partner_endpoint: partner.url,
      feed: {
        slug: 'btc-price',
        display_name: 'BTC price',
        description: 'Bitcoin spot price from our own matching engine, every trade',
        price_stx: '0.01',
        source_path: '/v1/prices',
      },
    })
    partner.secret = secret!
    setWallet([ownerKey])
    const { page, context } = session
    await rememberWalletChoice(page)
    await page.goto(session.url(`/dashboard/p/${provider.id}`))
    await signInThroughPage(page, { picker: false })
    const figure = (name: string) => page.getByTestId(name).locator('.value')
    await eventually(async () => assert.equal(await figure('queries').innerText(), '0'))

    const activity = await context.newPage()
    await activity.goto(session.url('/market/activity'))
    await activity.getByText('No paid calls yet.').waitFor()

    const paid = await buyFeed('/feeds/p/acme-data/btc-price', { agentName: 'market-maker-bot' })
    assert.equal(paid.status, 200)
    const other = await buyFeed('/feeds/gas-prediction', {
      buyer: DEVNET_ACCOUNTS[3],
      agentName: 'gas-oracle',
    })
    assert.equal(other.status, 200)

    const row = activity.getByTestId('activity').locator('li', { hasText: 'market-maker-bot' })
    await row.waitFor()
    assert.include(await row.innerText(), 'acme-data/btc-price')
    assert.include(await row.innerText(), '0.01 STX')
    // On the devnet, its own transaction page (docs/devnet.md#transaction-pages).
    const link = activity.locator(`a[href*="${paid.txid}"]`)
    assert.equal(await link.count(), 1)
    assert.equal(await link.getAttribute('href'), `${devnetUrl}/txid/0x${paid.txid}?chain=testnet`)

    await eventually(async () => {
      assert.equal(await figure('queries').innerText(), '1')
      assert.equal(await figure('buyers').innerText(), '1')
      assert.equal(await figure('pending').innerText(), '0.0097 STX')
      assert.equal(await figure('earned').innerText(), '0.0097 STX')
    })
    await screenshot(page, 'dashboard')
    await screenshot(activity, 'activity')

    const feedPage = await context.newPage()
    await feedPage.goto(session.url('/market/feeds/p/acme-data/btc-price'))
    // The page shows what the feed declares (nothing here), never the paid answer.
    const shape = feedPage.getByRole('region', { name: 'Response shape' })
    assert.include(await shape.innerText(), 'not declared by the provider')
    assert.notInclude(await feedPage.content(), '97000.5')
    const recent = feedPage.getByRole('region', { name: 'Recent purchases' })
    assert.include(await recent.innerText(), 'market-maker-bot')
    await screenshot(feedPage, 'feed')

    await feedPage.goto(session.url('/'))
    await screenshot(feedPage, 'home')

    await feedPage.goto(session.url('/market/providers/acme-data'))
    await feedPage.getByText('Not verified').waitFor()
    await screenshot(feedPage, 'provider-profile')

    await feedPage.goto(session.url('/market/leaderboard'))
    const board = await feedPage.getByRole('table').innerText()
    assert.include(board, 'market-maker-bot')
    assert.include(board, 'gas-oracle')
    await screenshot(feedPage, 'leaderboard')
  })
})
