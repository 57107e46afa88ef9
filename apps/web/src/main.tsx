import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureAuthFromUrl } from './api/storage';
import { initLanguage } from './i18n';
import { App } from './app/App';
import './app/global.css';

// A credential in the address (`?auth=`) is stored and removed from the URL before anything renders;
// except on the share pages (chat, search), whose `auth` is an embed token and must not replace the session.
const sharePage = ['/chat/share', '/search/share'].some((p) => window.location.pathname.startsWith(p));
if (!sharePage) captureAuthFromUrl();

void initLanguage().finally(() => {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
