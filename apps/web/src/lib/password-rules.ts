import type { Rule } from 'antd/es/form';
import { PASSWORD_MIN_EXCLUSIVE } from '@lectern/shared';

/** A new password is required and must be longer than 8 characters (SPEC §5, §9). */
export function passwordRules(requiredMessage: string, tooShortMessage: string): Rule[] {
  return [
    { required: true, message: requiredMessage },
    {
      validator: (_rule, value: string | undefined) =>
        !value || value.length > PASSWORD_MIN_EXCLUSIVE
          ? Promise.resolve()
          : Promise.reject(new Error(tooShortMessage)),
    },
  ];
}

export function isLongEnough(password: string): boolean {
  return password.length > PASSWORD_MIN_EXCLUSIVE;
}
