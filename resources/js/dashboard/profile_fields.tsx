import { site } from '../lib/site'
import { TextField, fieldProblem } from './ui'

/** The public profile as its form holds it (strings as typed). */
export interface ProfileDraft {
  display_name: string
  description: string
  website: string
  x_account: string
}

/** The profile's part of a request body: blanks are left out, or sent as null to clear. */
export function profileBody(draft: ProfileDraft, blank: null | undefined) {
  return {
    display_name: draft.display_name.trim(),
    description: draft.description.trim() || blank,
    website: draft.website.trim() || blank,
    x_account: draft.x_account.trim() || blank,
  }
}

/** Display name, pitch, website and X account: the registration's and the profile page's. */
export function ProfileFields(props: {
  draft: ProfileDraft
  onChange: (draft: ProfileDraft) => void
  error: unknown
  idPrefix: string
}) {
  const { draft, error, idPrefix } = props
  const set = (patch: Partial<ProfileDraft>) => props.onChange({ ...draft, ...patch })
  const problem = (field: string) => fieldProblem(error, field)
  const { text } = site().limits
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label="Display name"
        hint="Your company or project, as buyers see it."
        problem={problem('display_name')}
        value={draft.display_name}
        required
        maxLength={text.displayName}
        onValue={(name) => set({ display_name: name })}
      />
      <TextField
        id={`${idPrefix}-description`}
        label="One-sentence pitch (optional)"
        problem={problem('description')}
        value={draft.description}
        maxLength={text.description}
        onValue={(description) => set({ description })}
      />
      <TextField
        id={`${idPrefix}-website`}
        type="url"
        label="Website (optional)"
        hint="https://… Your manifest there earns you the verified badge."
        problem={problem('website')}
        value={draft.website}
        placeholder="https://example.com"
        onValue={(website) => set({ website })}
      />
      <TextField
        id={`${idPrefix}-x`}
        label="X account (optional)"
        hint="Like @yourname."
        problem={problem('x_account')}
        value={draft.x_account}
        placeholder="@yourname"
        onValue={(account) => set({ x_account: account })}
      />
    </>
  )
}
