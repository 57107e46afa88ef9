import { useEffect, useState } from 'react';
import { Alert, Card, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { useSystemConfig } from '../../api/system';
import { LanguageMenu } from '../../components/LanguageMenu';
import { takeFlash } from '../../components/flash';
import { SignInForm } from './SignInForm';
import { SignUpForm } from './SignUpForm';

type Mode = 'signIn' | 'signUp';

export default function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const config = useSystemConfig();
  const [mode, setMode] = useState<Mode>('signIn');
  const [email, setEmail] = useState('');
  const registerEnabled = config.data?.registerEnabled !== 0;

  useEffect(() => {
    const flash = takeFlash();
    if (flash) feedback.success(t(flash));
  }, [t]);

  // With registration switched off there is no way into the sign-up form, only the notice below.
  const signingUp = mode === 'signUp' && registerEnabled;
  return (
    <main
      style={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        padding: 24,
        background: token.colorBgLayout,
      }}
    >
      <div style={{ position: 'fixed', top: 16, right: 16 }}>
        <LanguageMenu />
      </div>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Typography.Text type="secondary">
          {t('common.appName')} · {t('login.tagline')}
        </Typography.Text>
        <Typography.Title level={1} style={{ fontSize: 26, marginTop: 8 }}>
          {signingUp ? t('login.signUpTitle') : t('login.signInTitle')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          {signingUp ? t('login.signUpSubtitle') : t('login.signInSubtitle')}
        </Typography.Paragraph>
        {config.isPending ? (
          <Skeleton active />
        ) : signingUp ? (
          <SignUpForm
            onSignIn={() => setMode('signIn')}
            onDone={(registered) => {
              setEmail(registered);
              setMode('signIn');
            }}
          />
        ) : (
          <SignInForm
            key={email}
            email={email}
            onSignUp={() => setMode('signUp')}
            canSignUp={registerEnabled}
          />
        )}
        {!signingUp && !registerEnabled && !config.isPending && (
          <Alert type="info" showIcon title={t('message.registerDisabled')} style={{ marginTop: 16 }} />
        )}
      </Card>
    </main>
  );
}
