import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The companion WordPress plugin shipped from this repository. */
export const PLUGIN_DIR = join(__dirname, '..', '..', 'wordpress', 'magnifinance-invoices');
export const PLUGIN_FILE = join(PLUGIN_DIR, 'magnifinance-invoices.php');
export const TEXT_DOMAIN = 'magnifinance-invoices';

export const havePhp = spawnSync('php', ['-v'], { stdio: 'ignore' }).status === 0;

/** Every PHP file of the plugin, relative to its folder. */
export function pluginPhpFiles(dir: string = PLUGIN_DIR, base = ''): string[] {
  return readdirSync(join(dir, base), { withFileTypes: true }).flatMap((entry) => {
    const relative = join(base, entry.name);
    if (entry.isDirectory()) return pluginPhpFiles(dir, relative);
    return entry.name.endsWith('.php') ? [relative] : [];
  });
}

/** The plugin's translatable strings as its PHP source writes them: __( '…', 'magnifinance-invoices' ). */
export function sourceStrings(): Set<string> {
  const strings = new Set<string>();
  const call = /\b(?:__|esc_html__)\(\s*'((?:[^'\\]|\\.)*)'\s*,\s*'([^']+)'\s*\)/g;
  for (const file of pluginPhpFiles()) {
    for (const match of readFileSync(join(PLUGIN_DIR, file), 'utf8').matchAll(call)) {
      if (match[2] !== TEXT_DOMAIN) throw new Error(`${file}: the string '${match[1]}' is in the text domain ${match[2]}`);
      strings.add((match[1] ?? '').replace(/\\(['\\])/g, '$1'));
    }
  }
  return strings;
}

/** The msgid → msgstr pairs of a .po or .pot file (single and continued lines; the header left out). */
export function poEntries(path: string): Map<string, string> {
  const entries = new Map<string, string>();
  let field: 'msgid' | 'msgstr' | undefined;
  let id = '';
  let str = '';
  const unquote = (quoted: string): string => JSON.parse(`"${quoted}"`) as string;
  const flush = (): void => {
    if (field === 'msgstr' && id !== '') entries.set(id, str);
  };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const start = /^(msgid|msgstr) "(.*)"$/.exec(line);
    const more = /^"(.*)"$/.exec(line);
    if (start) {
      if (start[1] === 'msgid') {
        flush();
        id = unquote(start[2] ?? '');
        str = '';
        field = 'msgid';
      } else {
        str = unquote(start[2] ?? '');
        field = 'msgstr';
      }
    } else if (more && field === 'msgid') id += unquote(more[1] ?? '');
    else if (more && field === 'msgstr') str += unquote(more[1] ?? '');
  }
  flush();
  return entries;
}
