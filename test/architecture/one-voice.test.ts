import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * One voice (issue 25.3): every sentence a person reads comes from a catalogue with codes and typed
 * parameters per language (messages/catalogue.ts), so no source picks its words by comparing the
 * reader's language to a literal (`lang === 'pt' ? … : …`, `if (lang === 'en')`, `pt ? … : …` on a
 * language flag). A language is read with messages/lang.ts's `readLang`, and words differ by
 * language only inside a catalogue's entries or a per-language table (`PerLang`).
 */

const ROOT = resolve(__dirname, '..', '..');
const SKIPPED = new Set(['node_modules', 'dist', 'test', 'coverage', '.git']);

function sourcesUnder(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, folder))) {
    if (SKIPPED.has(name) || name.startsWith('.')) continue;
    const path = folder === '.' ? name : `${folder}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourcesUnder(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** A language compared to a literal, or a ternary on a language flag. */
const LANGUAGE_BRANCHES = [/(lang|language)\s*[!=]==?\s*['"](pt|en)['"]/i, /\bpt\s*\?\s*[`'"(]/];

// No file is let off this rule any more: the law's two branches became per-language tables (issue 25.3).

function branches(file: string): string[] {
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && LANGUAGE_BRANCHES.some((pattern) => pattern.test(line)))
    .map(({ line, number }) => `${file}:${number}: ${line}`);
}

describe('one voice: no source picks its words by the reader\'s language outside a catalogue', () => {
  const sources = sourcesUnder('.');

  it('finds the sources (the scan is not empty)', () => {
    expect(sources).toEqual(expect.arrayContaining(['connector/pipeline/answers.ts', 'connector/doctor/render.ts', 'messages/lang.ts', 'platforms/registry.ts']));
  });

  it.each(sources)('%s has no `lang === \'pt\' ? … : …`-style branch', (file) => {
    expect(branches(file)).toEqual([]);
  });

  it('the rule sees a branch where there is one (the patterns are not blind)', () => {
    const caught = ["return lang === 'pt' ? 'olá' : 'hello';", "if (lang === 'en') return text;", 'return pt ? `olá ${name}` : `hello ${name}`;', "values.language !== 'pt'"];
    for (const line of caught) expect(LANGUAGE_BRANCHES.some((pattern) => pattern.test(line))).toBe(true);
    const fine = ['const draft = known ?? 1;', "const attempt = entry.draftAttempt ?? 1;", "return LOCALES[lang];", "CONSOLE.say(lang, 'attached', { documentId })"];
    for (const line of fine) expect(LANGUAGE_BRANCHES.some((pattern) => pattern.test(line))).toBe(false);
  });
});

/**
 * Words written inline where they are used: an object `{ en: …, pt: … }` with a text literal, built
 * inside a function (where its facts are pasted into prose), or `both(en => …, pt => …)`. Per-language
 * tables at a module's top level (labels, `PerLang`) and a catalogue's entries (`words(…)`,
 * `fixed(…)` at the top level) are where words live, so they pass.
 */
function isText(node: ts.Node | undefined): boolean {
  return node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node));
}

function insideFunction(node: ts.Node): boolean {
  for (let parent = node.parent; parent !== undefined; parent = parent.parent) if (ts.isFunctionLike(parent)) return true;
  return false;
}

function propertyName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
}

export function inlinePairs(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && insideFunction(node)) {
      const texts = new Map(node.properties.filter(ts.isPropertyAssignment).map((property) => [propertyName(property.name), property.initializer]));
      if (texts.has('en') && texts.has('pt') && (isText(texts.get('en')) || isText(texts.get('pt')))) found.push(`${at(node)}: inline { en, pt } pair`);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'both' && node.arguments.length >= 2) found.push(`${at(node)}: both(en, pt) with inline words`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('one voice: no source writes a reader\'s words inline, as an `{ en, pt }` pair or `both(…)`, outside a catalogue', () => {
  // No file is let off this rule any more: Shopify's doctor checks were the last (platforms/shopify/doctor-words.ts).
  const sources = sourcesUnder('.');

  it.each(sources)('%s has no inline { en, pt } pair', (file) => {
    expect(inlinePairs(file, readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('the rule sees inline words where they are (it is not blind), and passes tables and catalogue entries', () => {
    const inline = [
      "function f(n: number) { return { en: `${n} orders`, pt: `${n} encomendas` }; }",
      "const f = () => warn('shop', { en: 'REST key', pt: 'Chave REST' });",
      "function f(d: string) { return both((w) => `could not: ${w(d)}`, (w) => `não: ${w(d)}`); }",
    ];
    for (const text of inline) expect(inlinePairs('x.ts', text)).toHaveLength(1);
    const fine = [
      "const KEYS_PAGE: PerLang = { en: 'REST API', pt: 'API REST' };",
      "const WORDS = { title: { pt: 'Consola', en: 'Console' } };",
      "export const C = catalogue({ a: fixed({ en: 'a', pt: 'b' }), b: words({ n: N }, { en: (p) => `${p.n}`, pt: (p) => `${p.n}` }) });",
      "function f() { return WOO.say(lang, 'accepted'); }",
      "const both = (say: Say) => ({ en: say('en'), pt: say('pt') });",
    ];
    for (const text of fine) expect(inlinePairs('x.ts', text)).toEqual([]);
  });
});

/** A platform's admin screen named in words ("WooCommerce > Settings > …", "Definições > Avançado", Shopify's "Settings > Notifications"). */
const PLATFORM_SCREEN = /WooCommerce\s*>|Shopify admin\s*>|Settings\s*>\s*(Advanced|Tax|Notifications)|Definições\s*>\s*(Avançado|Impostos|Notificações)/;

function screensNamed(file: string): string[] {
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && PLATFORM_SCREEN.test(line))
    .map(({ line, number }) => `${file}:${number}: ${line}`);
}

/**
 * Where a person fixes something in the shop's own admin is the platform's to say (its catalogue,
 * through platforms/shop-platform.ts), so a Shopify tenant never reads WooCommerce's screens. No file
 * of connector/ names one any more (the last three moved their words to the platforms' catalogues).
 */
describe("one voice: the connector names no platform's admin screen; the platform's catalogue does", () => {
  it.each(sourcesUnder('connector'))('%s names no platform screen', (file) => {
    expect(screensNamed(file)).toEqual([]);
  });

  it('the rule sees a screen where one is named (it is not blind)', () => {
    const named = ['In WooCommerce > Settings > Advanced > Webhooks, set …', 'Ative WooCommerce > Definições > Impostos > …', 'delete it in Settings > Notifications > Webhooks', 'em Definições > Notificações > Webhooks'];
    for (const line of named) expect(PLATFORM_SCREEN.test(line)).toBe(true);
    expect(PLATFORM_SCREEN.test("platform.deliveryProblemWords(lang, reason)")).toBe(false);
  });
});
