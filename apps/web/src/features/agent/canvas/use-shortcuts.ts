import { useEffect } from 'react';

export interface ShortcutHandlers {
  undo: () => void;
  redo: () => void;
  copy: () => void;
  paste: () => void;
  save: () => void;
  fit: () => void;
}

/** Typing in a field keeps the browser's own shortcuts. */
function inField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName)));
}

/**
 * Editor shortcuts: Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo, Ctrl/⌘+C/V copy/paste nodes,
 * Ctrl/⌘+S save now, Shift+1 zoom to fit. Delete/Backspace removes the selection (React Flow).
 */
export function useShortcuts(handlers: ShortcutHandlers): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        handlers.save();
        return;
      }
      if (inField(e.target)) return;
      if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) handlers.redo();
        else handlers.undo();
      } else if (mod && key === 'y') {
        e.preventDefault();
        handlers.redo();
      } else if (mod && key === 'c') handlers.copy();
      else if (mod && key === 'v') handlers.paste();
      else if (e.shiftKey && (e.key === '!' || e.code === 'Digit1')) handlers.fit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handlers]);
}
