import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'

/**
 * The script a document shows as `` `name` `` followed by a ```js block, as a
 * reader copies it; `doc` is relative to the project root.
 */
async function scriptIn(doc: string, name: string) {
  const text = await readFile(app.makePath(doc), 'utf8')
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const script = new RegExp(`\`${escaped}\`[\\s\\S]*?\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1]
  if (!script) throw new Error(`${doc} no longer shows ${name}`)
  return script
}

/**
 * Saves the script `name` of `doc` in the project (where its imports
 * resolve) and runs it as `node name` does, with `scriptEnv` added to this
 * process's environment; the file is deleted afterwards.
 */
export async function runDocScript(
  doc: string,
  name: string,
  scriptEnv: Record<string, string>,
  timeoutMs: number
) {
  const dir = app.tmpPath('readme-scripts')
  const file = `${dir}/${randomUUID()}-${name}`
  await mkdir(dir, { recursive: true })
  await writeFile(file, await scriptIn(doc, name))
  try {
    return await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [file],
        { cwd: app.appRoot.pathname, env: { ...process.env, ...scriptEnv }, timeout: timeoutMs },
        (error, stdout, stderr) => {
          const code = (error as { code?: unknown } | null)?.code
          resolve({ code: error ? (typeof code === 'number' ? code : -1) : 0, stdout, stderr })
        }
      )
    })
  } finally {
    await rm(file, { force: true })
  }
}
