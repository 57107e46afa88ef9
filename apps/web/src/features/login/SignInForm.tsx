import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../api/feedback';
import { useLogin } from '../../api/user';

/** Email + password; Enter submits. A refused sign-in shows the server's reason in the form. */
export function SignInForm({
  email,
  onSignUp,
  canSignUp,
}: {
  email: string;
  onSignUp: () => void;
  canSignUp: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: { email: string; password: string }) => {
    setError(null);
    const result = await login.mutateAsync(values);
    if (result.code === 0) {
      feedback.success(t('message.logged'));
      navigate('/', { replace: true });
    } else {
      setError(result.message);
    }
  };

  return (
    <Form
      layout="vertical"
      onFinish={submit}
      initialValues={{ email }}
      requiredMark={false}
      aria-label={t('login.signIn')}
    >
      <Form.Item
        label={t('login.email')}
        name="email"
        rules={[
          { required: true, message: t('login.emailRequired') },
          { type: 'email', message: t('login.emailInvalid') },
        ]}
      >
        <Input autoComplete="email" placeholder={t('login.emailPlaceholder')} autoFocus={!email} />
      </Form.Item>
      <Form.Item
        label={t('login.password')}
        name="password"
        rules={[{ required: true, message: t('login.passwordRequired') }]}
      >
        <Input.Password
          autoComplete="current-password"
          placeholder={t('login.passwordPlaceholder')}
          autoFocus={!!email}
        />
      </Form.Item>
      {error && (
        <Alert
          type="error"
          showIcon
          role="alert"
          title={t('login.failed')}
          description={error}
          style={{ marginBottom: 16 }}
        />
      )}
      <Button type="primary" htmlType="submit" block loading={login.isPending}>
        {t('login.signIn')}
      </Button>
      {canSignUp && (
        <Typography.Paragraph style={{ marginTop: 16, textAlign: 'center' }}>
          {t('login.noAccount')}{' '}
          <Button type="link" onClick={onSignUp} style={{ padding: 0 }}>
            {t('login.signUp')}
          </Button>
        </Typography.Paragraph>
      )}
    </Form>
  );
}
