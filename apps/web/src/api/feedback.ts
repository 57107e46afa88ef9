import { message as staticMessage, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';

/**
 * Toasts and notifications for code that lives outside React (the request client). The app binds the
 * context-aware instances of antd's `App.useApp()` at start-up so they follow the theme; until then the
 * static functions are used.
 */
interface FeedbackApis {
  message: Pick<MessageInstance, 'error' | 'success'>;
  notification: Pick<NotificationInstance, 'error'>;
}

let apis: FeedbackApis = { message: staticMessage, notification: staticNotification };

export function bindFeedback(next: FeedbackApis): void {
  apis = next;
}

export interface NoticeArgs {
  message: string;
  description?: string;
  duration?: number;
}

export const feedback = {
  error(text: string): void {
    void apis.message.error(text);
  },
  success(text: string): void {
    void apis.message.success(text);
  },
  notifyError(args: NoticeArgs): void {
    apis.notification.error({ title: args.message, description: args.description, duration: args.duration });
  },
};

/** Leaves the single-page app for the sign-in page (a full page load, SPEC §2). */
export const navigation = {
  toLogin(): void {
    window.location.href = '/login';
  },
};
