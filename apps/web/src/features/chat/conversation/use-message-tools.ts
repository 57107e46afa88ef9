import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { speak } from '../../../api/conversation';
import { feedback } from '../../../api/feedback';
import { stripCitations } from '../lib/citations';
import { splitThinking } from '../lib/thinking';

/** The plain answer of a message: no reasoning, no citation markers. */
export function plainAnswer(content: string): string {
  return stripCitations(splitThinking(content).answer).trim();
}

/** Copy to the clipboard and text to speech for answers. */
export function useMessageTools() {
  const { t } = useTranslation();
  const [speakingId, setSpeakingId] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const audioUrl = useRef<string | null>(null);

  const stopAudio = useCallback(() => {
    audio.current?.pause();
    audio.current = null;
    if (audioUrl.current) URL.revokeObjectURL(audioUrl.current);
    audioUrl.current = null;
  }, []);
  useEffect(() => stopAudio, [stopAudio]);

  const copy = useCallback(
    async (content: string) => {
      try {
        await navigator.clipboard.writeText(plainAnswer(content));
        feedback.success(t('message.copied'));
      } catch {
        feedback.error(t('chat.copyFailed'));
      }
    },
    [t],
  );

  const say = useCallback(
    async (id: string, content: string) => {
      stopAudio();
      setSpeakingId(id);
      const result = await speak(plainAnswer(content));
      setSpeakingId(null);
      if (!result.audio) {
        if (![100, 401, 1999].includes(result.code)) feedback.error(result.message || t('chat.ttsFailed'));
        return;
      }
      const url = URL.createObjectURL(result.audio);
      audioUrl.current = url;
      audio.current = new Audio(url);
      audio.current.play().catch(() => feedback.error(t('chat.ttsFailed')));
    },
    [stopAudio, t],
  );

  return { copy, say, speakingId };
}
