/** XML answers (arXiv Atom, NCBI E-utilities) read with linkedom's DOMParser. */
import { DOMParser } from 'linkedom';

export interface XmlNode {
  textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<XmlNode>;
}

export function parseXml(xml: string): XmlNode {
  return new DOMParser().parseFromString(xml, 'text/xml') as unknown as XmlNode;
}

export function all(node: XmlNode, tag: string): XmlNode[] {
  return Array.from(node.getElementsByTagName(tag));
}

/** The text of the first `tag` inside `node`, whitespace collapsed ('' when absent). */
export function first(node: XmlNode, tag: string): string {
  return (node.getElementsByTagName(tag)[0]?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
