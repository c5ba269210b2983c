import { test } from '@japa/runner'
import { randomPrivateKey } from '@stacks/transactions'
import {
  PHONE,
  rememberWalletChoice,
  screenshot,
  signInThroughPage,
  useBrowser,
} from '#tests/support/browser'

test.group("A feed's declared response shape", (group) => {
  const { session, setWallet } = useBrowser(group)

  test('is edited on a phone, its refusals in words, and shown on the public page', async ({
    assert,
  }) => {
    setWallet([randomPrivateKey()])
    const { page } = session
    await rememberWalletChoice(page)
    await page.goto(session.url('/dashboard/register'))
    await signInThroughPage(page, { picker: false })
    await page.getByLabel(/Hosted Mirror: we host a copy/).check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Handle').fill('mirror-co')
    await page.getByText('“mirror-co” is available').waitFor()
    await page.getByLabel('Display name').fill('Mirror Co')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByLabel('Feed name').fill('Rates')
    await page.getByLabel(/You upload it by hand/).check()
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.getByRole('button', { name: 'Register and go live' }).click()
    await page.getByRole('link', { name: 'Open my dashboard' }).click()
    await page.getByRole('link', { name: 'Rates' }).click()

    await page.setViewportSize(PHONE)
    const card = page.getByRole('form', { name: 'Response shape' })
    const schema = card.getByLabel('JSON Schema of the data (optional)')
    const example = card.getByLabel('Example data (optional)')
    const save = card.getByRole('button', { name: 'Save response shape' })
    const box = await schema.boundingBox()
    assert.isAtMost(box!.x + box!.width, PHONE.width)

    // The API refuses the shapes below on purpose (422), and the card says why.
    session.problems.tolerate((problem) => problem.text.includes('422'))
    await schema.fill('{ "type": "object", ')
    await save.click()
    await card.getByText(/The schema is not valid JSON/).waitFor()

    await schema.fill(
      '{"type": "object", "properties": {"rates": {"type": "object", "additionalProperties": {"type": "number"}}}, "required": ["rates"]}'
    )
    await example.fill('{"rates": {"EUR": "cheap"}}')
    await save.click()
    await card.getByText('The example needs a fix: see the message next to it.').waitFor()
    const refusal = await card.locator('#declaration-example-problem').innerText()
    assert.include(refusal, 'output_example does not match output_schema')
    assert.include(refusal, 'output_example/rates/EUR must be number')
    await screenshot(page, 'feed-declaration-refused')

    await example.fill('{"rates": {"EUR": 1.08}}')
    await save.click()
    await card.getByText("Saved. The feed's page shows the new shape.").waitFor()

    await page.goto(session.url('/market/feeds/p/mirror-co/rates'))
    const shape = await page.locator('#shape').innerText()
    assert.include(shape, '"rates": {')
    assert.include(shape, '"<any key>": "number"')
    assert.notInclude(shape, 'EUR')
  })
})
