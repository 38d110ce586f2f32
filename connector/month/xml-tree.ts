/**
 * A small, fast reader of well-formed XML into plain objects, for the SAF-T: elements become
 * properties named without their namespace prefix, an element with child elements an object, one
 * with only text its trimmed text ('' when empty); attributes, comments, processing instructions
 * and the DOCTYPE are skipped, CDATA is text, entities are left as written (the reader decodes the
 * few texts it keeps). Names in `arrays` are always lists. A month's SAF-T of 10,000 documents is
 * tens of MB: one pass with indexOf, no regular expression per character, about ten times faster
 * than a general parser building the same objects.
 *
 * Throws XmlError on what is not well-formed: an end tag that closes another element, an element
 * left open, a tag that does not end, text or a second element outside the root.
 */

export class XmlError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at character ${offset})`);
  }
}

type Node = Record<string, unknown>;

interface Open {
  name: string;
  node: Node | undefined;
  text: string;
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon === -1 ? qualified : qualified.slice(colon + 1);
}

/** The end of a tag that starts at `from` (its '>'), skipping '>' inside quoted attribute values. */
function tagEnd(text: string, from: number): number {
  let i = from;
  for (;;) {
    const close = text.indexOf('>', i);
    if (close === -1) return -1;
    const quote = text.slice(i, close).search(/["']/);
    if (quote === -1) return close;
    const q = i + quote;
    const end = text.indexOf(text[q], q + 1);
    if (end === -1) return -1;
    i = end + 1;
  }
}

function isNameEnd(code: number): boolean {
  // space, tab, newline, carriage return, '/', '>'
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 47 || code === 62;
}

/**
 * `skip`: elements whose content is not wanted (a SAF-T's product lines' descriptions, hashes, other
 * sections): jumped over to their end tag, not read; their own well-formedness is not checked.
 */
export function xmlTree(text: string, arrays: ReadonlySet<string>, skip: ReadonlySet<string> = new Set()): Node {
  const root: Node = {};
  const stack: Open[] = [{ name: '', node: root, text: '' }];
  let rootSeen = false;
  let i = 0;
  const add = (parent: Open, name: string, value: unknown): void => {
    if (!parent.node) parent.node = {};
    const node = parent.node;
    if (arrays.has(name)) {
      const list = node[name];
      if (Array.isArray(list)) list.push(value);
      else node[name] = [value];
    } else if (name in node) {
      // A repeated element not declared a list: kept as a list, as general parsers do.
      const found = node[name];
      node[name] = Array.isArray(found) ? [...(found as unknown[]), value] : [found, value];
    } else node[name] = value;
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const top = stack[stack.length - 1];
    const chunk = lt === -1 ? text.slice(i) : text.slice(i, lt);
    if (chunk.length > 0) {
      if (stack.length === 1) {
        if (chunk.trim() !== '') throw new XmlError('text outside the root element', i);
      } else if (!top.node) top.text += chunk;
    }
    if (lt === -1) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 63 /* ? */) {
      const end = text.indexOf('?>', lt + 2);
      if (end === -1) throw new XmlError('a processing instruction that does not end', lt);
      i = end + 2;
      continue;
    }
    if (next === 33 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt + 4);
        if (end === -1) throw new XmlError('a comment that does not end', lt);
        i = end + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt + 9);
        if (end === -1 || stack.length === 1) throw new XmlError('a CDATA section that does not end or lies outside the root', lt);
        top.text += text.slice(lt + 9, end);
        i = end + 3;
      } else {
        // <!DOCTYPE ...> (an internal subset in brackets is skipped whole).
        const bracket = text.indexOf('[', lt);
        const close = text.indexOf('>', lt);
        const end = bracket !== -1 && bracket < close ? text.indexOf(']>', bracket) + 1 : close;
        if (end <= 0) throw new XmlError('a declaration that does not end', lt);
        i = end + 1;
      }
      continue;
    }
    if (next === 47 /* / */) {
      const end = text.indexOf('>', lt + 2);
      if (end === -1) throw new XmlError('an end tag that does not end', lt);
      const name = localName(text.slice(lt + 2, end).trim());
      if (stack.length === 1 || top.name !== name) throw new XmlError(`</${name}> closes <${top.name || 'nothing'}>`, lt);
      stack.pop();
      add(stack[stack.length - 1], name, top.node ?? top.text.trim());
      i = end + 1;
      continue;
    }
    const end = tagEnd(text, lt + 1);
    if (end === -1) throw new XmlError('a tag that does not end', lt);
    let nameEnd = lt + 1;
    while (nameEnd < end && !isNameEnd(text.charCodeAt(nameEnd))) nameEnd += 1;
    const qualified = text.slice(lt + 1, nameEnd);
    const name = localName(qualified);
    if (name === '') throw new XmlError('a tag without a name', lt);
    if (stack.length === 1) {
      if (rootSeen) throw new XmlError('a second root element', lt);
      rootSeen = true;
    }
    if (text.charCodeAt(end - 1) === 47 /* / */) {
      if (!skip.has(name)) add(top, name, '');
      i = end + 1;
      continue;
    }
    if (skip.has(name)) {
      const close = text.indexOf(`</${qualified}>`, end + 1);
      if (close === -1) throw new XmlError(`<${name}> is never closed`, lt);
      i = close + qualified.length + 3;
      continue;
    }
    // A leaf (text then its own end tag), the most common element: read without the stack.
    const after = text.indexOf('<', end + 1);
    if (after !== -1 && text.charCodeAt(after + 1) === 47 && text.startsWith(qualified, after + 2) && text.charCodeAt(after + 2 + qualified.length) === 62) {
      add(top, name, text.slice(end + 1, after).trim());
      i = after + qualified.length + 3;
      continue;
    }
    stack.push({ name, node: undefined, text: '' });
    i = end + 1;
  }
  if (stack.length > 1) throw new XmlError(`<${stack[stack.length - 1].name}> is never closed`, text.length);
  if (!rootSeen) throw new XmlError('no root element', 0);
  return root;
}
