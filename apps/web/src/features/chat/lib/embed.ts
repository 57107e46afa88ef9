/**
 * Snippets of the embed dialog: the shared chat page `/chat/share?shared_id=<dialog_id>&auth=<beta>`
 * as a full-screen iframe, as a partial (floating) window, and as a browser extension's side panel.
 */

export type EmbedKind = 'fullscreen' | 'partial' | 'extension';
export const EMBED_KINDS: readonly EmbedKind[] = ['fullscreen', 'partial', 'extension'];

/** The address of the shared chat page. */
export function shareUrl(origin: string, dialogId: string, beta: string, language?: string): string {
  const params = new URLSearchParams({ shared_id: dialogId, from: 'chat', auth: beta });
  if (language) params.set('locale', language);
  return `${origin.replace(/\/$/, '')}/chat/share?${params.toString()}`;
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export function fullscreenSnippet(url: string): string {
  return `<iframe
  src="${attr(url)}"
  style="width: 100%; height: 100%; min-height: 600px; border: 0"
  allow="clipboard-write"
></iframe>`;
}

export function partialSnippet(url: string, title: string): string {
  return `<div id="lectern-chat" style="position: fixed; right: 24px; bottom: 24px; z-index: 2147483000">
  <iframe
    id="lectern-chat-frame"
    src="${attr(url)}"
    title="${attr(title)}"
    style="display: none; width: 380px; height: 560px; border: 0; border-radius: 12px; box-shadow: 0 8px 32px rgba(0,0,0,.2); background: #fff"
    allow="clipboard-write"
  ></iframe>
  <button
    type="button"
    aria-controls="lectern-chat-frame"
    aria-expanded="false"
    style="display: block; margin-left: auto; margin-top: 8px; width: 56px; height: 56px; border: 0; border-radius: 50%; background: #3b5bdb; color: #fff; font-size: 24px; cursor: pointer"
    onclick="var f=document.getElementById('lectern-chat-frame');var open=f.style.display==='none';f.style.display=open?'block':'none';this.setAttribute('aria-expanded',String(open));"
  >&#128172;</button>
</div>`;
}

/** A Manifest V3 extension: a side panel that shows the shared chat page. */
export function extensionSnippet(url: string, title: string): string {
  const manifest = {
    manifest_version: 3,
    name: title,
    version: '1.0.0',
    permissions: ['sidePanel'],
    side_panel: { default_path: 'sidepanel.html' },
    action: { default_title: title },
    background: { service_worker: 'background.js' },
  };
  return `// manifest.json
${JSON.stringify(manifest, null, 2)}

// background.js
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });

// sidepanel.html
<!doctype html>
<html>
  <body style="margin: 0">
    <iframe src="${attr(url)}" style="width: 100%; height: 100vh; border: 0" allow="clipboard-write"></iframe>
  </body>
</html>`;
}

export function embedSnippet(kind: EmbedKind, url: string, title: string): string {
  if (kind === 'fullscreen') return fullscreenSnippet(url);
  if (kind === 'partial') return partialSnippet(url, title);
  return extensionSnippet(url, title);
}
