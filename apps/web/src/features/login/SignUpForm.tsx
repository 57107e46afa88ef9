import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { hasCredential } from '../../api/storage';
import { NICKNAME_MAX } from '@lectern/shared';
import { useRegister, useSaveSetting, type RegisterInput } from '../../api/user';
import { browserTimezone } from '../../lib/timezones';
import { passwordRules } from '../../lib/password-rules';

interface SignUpValues extends RegisterInput {
  confirm: string;
}

/**
 * Nickname, email, password and confirmation; on success the new user is signed in (the register
 * answer carries the session) and lands on the home page, else the page returns to sign-in.
 */
export function SignUpForm({ onDone, onSignIn }: { onDone: (email: string) => void; onSignIn: () => void }) {
  const { t } = useTranslation();
  const register = useRegister();
  const saveSetting = useSaveSetting();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);

  const submit = async ({ nickname, email, password }: SignUpValues) => {
    setError(null);
    const result = await register.mutateAsync({ nickname, email, password });
    if (result.code === 0) {
      feedback.success(t('message.registered'));
      if (!hasCredential()) return onDone(email);
      // The new account starts in the browser's time zone (the server's default is Asia/Shanghai);
      // best effort: the profile page changes it too.
      const timezone = browserTimezone();
      if (timezone) await saveSetting.mutateAsync({ timezone }).catch(() => undefined);
      navigate('/', { replace: true });
    } else {
      setError(result.message);
    }
  };

  return (
    <Form<SignUpValues>
      layout="vertical"
      onFinish={submit}
      requiredMark={false}
      aria-label={t('login.signUp')}
    >
      <Form.Item
        label={t('login.nickname')}
        name="nickname"
        rules={[
          { required: true, whitespace: true, message: t('login.nicknameRequired') },
          { max: NICKNAME_MAX, message: t('login.nicknameTooLong', { max: NICKNAME_MAX }) },
        ]}
      >
        <Input autoComplete="nickname" placeholder={t('login.nicknamePlaceholder')} autoFocus />
      </Form.Item>
      <Form.Item
        label={t('login.email')}
        name="email"
        rules={[
          { required: true, message: t('login.emailRequired') },
          { type: 'email', message: t('login.emailInvalid') },
        ]}
      >
        <Input autoComplete="email" placeholder={t('login.emailPlaceholder')} />
      </Form.Item>
      <Form.Item
        label={t('login.password')}
        name="password"
        rules={passwordRules(t('login.passwordRequired'), t('login.passwordTooShort'))}
      >
        <Input.Password autoComplete="new-password" placeholder={t('login.passwordPlaceholder')} />
      </Form.Item>
      <Form.Item
        label={t('login.confirmPassword')}
        name="confirm"
        dependencies={['password']}
        rules={[
          { required: true, message: t('login.confirmPasswordRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) =>
              !value || getFieldValue('password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('login.passwordMismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" placeholder={t('login.confirmPasswordPlaceholder')} />
      </Form.Item>
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('login.registerFailed')}
          description={error}
          style={{ marginBottom: 16 }}
        />
      )}
      <Button type="primary" htmlType="submit" block loading={register.isPending}>
        {t('login.signUp')}
      </Button>
      <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
        {t('login.haveAccount')}{' '}
        <Button type="link" onClick={onSignIn} style={{ padding: 0 }}>
          {t('login.signIn')}
        </Button>
      </Typography.Paragraph>
    </Form>
  );
}
