import { test } from '@japa/runner'
import { creditedWallet } from '#tests/support/credit'
import { creditCall } from '#tests/support/credit_calls'
import {
  DESKTOP,
  PHONE,
  rememberWalletChoice,
  signInThroughPage,
  useBrowser,
} from '#tests/support/browser'

test.group('The credit page', (group) => {
  const { session, setWallet } = useBrowser(group)

  test("the statement shows every line's amount whole on a phone, without scrolling", async ({
    assert,
  }) => {
    // The widest lines: a large top-up, and a call of a provider's feed with a long address.
    const wallet = await creditedWallet(123_456_789n)
    await creditCall(wallet.address, 5_000n, 'GET /feeds/p/a-provider-with-a-long-handle/btc-price')
    setWallet([wallet.key])
    const { page } = session
    await rememberWalletChoice(page)
    await page.goto(session.url('/credit'))
    await signInThroughPage(page, { picker: false })
    await page.getByRole('heading', { name: 'Statement' }).waitFor()

    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport)
      const statement = page.locator('.table-wrap')
      const [inside, shown] = await statement.evaluate((element) => [
        element.scrollWidth,
        element.clientWidth,
      ])
      assert.isAtMost(inside, shown, `the statement is cut off at ${viewport.width} px`)
      for (const amount of ['+123.456789 STX', '-0.005 STX']) {
        const box = await statement.getByText(amount).boundingBox()
        const frame = await statement.boundingBox()
        assert.isAtMost(box!.x + box!.width, frame!.x + frame!.width, `${amount} is cut off`)
      }
    }
  })

  test('a credit below the smallest refund is offered whole, not as a range that cannot be met', async ({
    assert,
  }) => {
    const wallet = await creditedWallet(87_000n)
    setWallet([wallet.key])
    const { page } = session
    await rememberWalletChoice(page)
    await page.goto(session.url('/credit'))
    await signInThroughPage(page, { picker: false })

    const hint = page.getByText(/sent to ST/)
    await hint.waitFor()
    assert.match(
      await hint.innerText(),
      /^Your whole credit \(0\.087 STX\) only, as it is below the smallest refund \(0\.1 STX\), sent to /
    )
  })
})
