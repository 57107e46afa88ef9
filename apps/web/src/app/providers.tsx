import { useEffect, useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useTranslation } from 'react-i18next';
import { bindFeedback } from '../api/feedback';
import { queryClient } from '../api/query-client';
import { currentLanguage } from '../i18n';
import { antdLocaleLoaders } from '../i18n/locale-loaders';
import { useColorSchema } from '../lib/preferences';
import { usePrefersReducedMotion } from '../lib/reduced-motion';

/** antd's own texts (pagination, pickers, Popconfirm buttons…) in the interface language. */
function useAntdLocale(): Locale | undefined {
  const { i18n } = useTranslation();
  const [locale, setLocale] = useState<Locale | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    void antdLocaleLoaders[currentLanguage()]().then((m) => alive && setLocale(m.default));
    return () => {
      alive = false;
    };
  }, [i18n.language]);
  return locale;
}

/** Hands antd's context-aware message/notification to code outside React, and paints the page. */
function ThemeBridge({ children }: { children: ReactNode }) {
  const { message, notification } = AntdApp.useApp();
  const { token } = theme.useToken();
  const dark = useColorSchema() === 'Dark';
  useEffect(() => bindFeedback({ message, notification }), [message, notification]);
  useEffect(() => {
    document.body.style.backgroundColor = token.colorBgLayout;
    document.body.style.color = token.colorText;
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [token.colorBgLayout, token.colorText, dark]);
  return children;
}

export function Providers({ children }: { children: ReactNode }) {
  const dark = useColorSchema() === 'Dark';
  const locale = useAntdLocale();
  const reducedMotion = usePrefersReducedMotion();
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={locale}
        theme={{
          algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
          token: { colorPrimary: '#3b5bdb', borderRadius: 8, motion: !reducedMotion },
        }}
      >
        <AntdApp>
          <ThemeBridge>{children}</ThemeBridge>
        </AntdApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
