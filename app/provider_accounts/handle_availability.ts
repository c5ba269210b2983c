import vine from '@vinejs/vine'
import Provider from '#models/provider'
import { E_HANDLE_TAKEN } from '#provider_accounts/exceptions'
import { handleRule } from '#provider_accounts/rules'

const handleValidator = vine.create({ handle: vine.string().maxLength(64).use(handleRule()) })

export type HandleAvailability =
  | { handle: string; available: true }
  | {
      handle: string
      available: false
      reason: 'handle_invalid' | 'handle_reserved' | 'handle_taken'
      message: string
    }

/**
 * Whether registration would accept a handle, said with registration's own
 * rules and words (`handle_invalid`, `handle_reserved`, `handle_taken`), for
 * a wizard that checks as the person types. Registration still decides.
 */
export async function handleAvailability(handle: string): Promise<HandleAvailability> {
  const [error] = await handleValidator.tryValidate({ handle })
  if (error) {
    const [problem] = error.messages as Array<{ rule: string; message: string }>
    return {
      handle,
      available: false,
      reason: problem.rule === 'handle_reserved' ? 'handle_reserved' : 'handle_invalid',
      message: problem.message,
    }
  }
  if (await Provider.findBy('handle', handle)) {
    return {
      handle,
      available: false,
      reason: 'handle_taken',
      message: new E_HANDLE_TAKEN([handle]).message,
    }
  }
  return { handle, available: true }
}
