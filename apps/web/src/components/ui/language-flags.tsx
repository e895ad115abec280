import { LANGUAGES, type Language } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../lib/i18n';

function Flag({ language }: { language: Language }) {
  if (language === 'sv-SE') {
    return (
      <svg viewBox="0 0 16 10" width={24} height={16} aria-hidden="true" focusable="false">
        <rect width="16" height="10" fill="#006aa7" />
        <rect x="5" width="2" height="10" fill="#fecc00" />
        <rect y="4" width="16" height="2" fill="#fecc00" />
      </svg>
    );
  }
  if (language === 'fi-FI') {
    return (
      <svg viewBox="0 0 18 11" width={24} height={16} aria-hidden="true" focusable="false">
        <rect width="18" height="11" fill="#fff" />
        <rect x="5" width="3" height="11" fill="#002f6c" />
        <rect y="4" width="18" height="3" fill="#002f6c" />
      </svg>
    );
  }
  return (
    <svg viewBox="0 0 19 10" width={24} height={16} aria-hidden="true" focusable="false">
      <rect width="19" height="10" fill="#fff" />
      {[0, 2, 4, 6, 8].map((y) => (
        <rect key={y} y={y * (10 / 13) * 1.3} width="19" height={10 / 13} fill="#b22234" />
      ))}
      <rect width="8" height={(10 / 13) * 7} fill="#3c3b6e" />
    </svg>
  );
}

/** The language flags (spec §2): buttons named by the language, the current one pressed. */
export function LanguageFlags({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <fieldset className={['language-flags', className].filter(Boolean).join(' ')}>
      <legend className="visually-hidden">{t('common:language.choose')}</legend>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className="language-flags__button"
          aria-pressed={i18n.language === language}
          aria-label={t(`common:language.names.${language}`)}
          title={t(`common:language.names.${language}`)}
          onClick={() => void setLanguage(language)}
        >
          <Flag language={language} />
        </button>
      ))}
    </fieldset>
  );
}
