// How the console shows a page's DOM nodes (agent/serialize.ts): a tag with its id and class, a text
// node's text. React Native has no DOM (dom-node.native.ts).

export interface DomLike {
  nodeType: number;
  nodeName: string;
  localName?: string;
  id?: string;
  nodeValue?: string | null;
  getAttribute?(name: string): string | null;
}

export function isDomNode(x: object): x is DomLike {
  const NodeCtor = (globalThis as { Node?: abstract new () => object }).Node;
  if (typeof NodeCtor === 'function') return x instanceof NodeCtor;
  return false;
}

export function describeNode(node: DomLike): string {
  try {
    if (node.nodeType === 1) {
      const attr = (name: string) => node.getAttribute?.(name);
      const id = attr('id');
      const cls = attr('class');
      const name = node.localName ?? node.nodeName.toLowerCase();
      return `<${name}${id ? ` id="${id.slice(0, 100)}"` : ''}${cls ? ` class="${cls.slice(0, 200)}"` : ''}>`;
    }
    if (node.nodeType === 3 || node.nodeType === 8) {
      return `${node.nodeName} "${(node.nodeValue ?? '').slice(0, 200)}"`;
    }
    return node.nodeName;
  } catch {
    return 'node';
  }
}
