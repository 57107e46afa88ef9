import { createContext, useContext } from 'react';

/** Opens a document (the citation popovers and reference lists use it); null where none can open. */
export type OpenDocument = (doc: { id: string; name: string }) => void;

export const DocumentOpenerContext = createContext<OpenDocument | null>(null);

export function useDocumentOpener(): OpenDocument | null {
  return useContext(DocumentOpenerContext);
}
