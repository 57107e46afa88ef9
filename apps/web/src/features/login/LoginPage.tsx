import { useEffect, useState } from 'react';
import { Alert, Card, Skeleton, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
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

  // What the previous page wanted said after its full page load here (signed out, password changed):
  // shown in the card until the person signs in, not as a toast that may vanish before it is read.
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    const taken = takeFlash();
    if (taken) setFlash(taken);
  }, []);

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
        {flash && (
          <Alert role="status" type="success" showIcon title={t(flash)} style={{ marginBottom: 16 }} />
        )}
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
