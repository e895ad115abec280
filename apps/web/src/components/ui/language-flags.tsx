import { LANGUAGES, type Language } from '@portal/contracts';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../lib/i18n';

/**
 * The Nordic cross flags: a field and a cross of one colour, in the flag's own proportions (the
 * vertical bar starts at `x`, the horizontal one at `y`, both `bar` wide).
 */
const NORDIC_CROSSES: Partial<
  Record<
    Language,
    { width: number; height: number; field: string; cross: string; x: number; y: number; bar: number }
  >
> = {
  'sv-SE': { width: 16, height: 10, field: '#006aa7', cross: '#fecc00', x: 5, y: 4, bar: 2 },
  'fi-FI': { width: 18, height: 11, field: '#fff', cross: '#002f6c', x: 5, y: 4, bar: 3 },
};

function Flag({ language }: { language: Language }) {
  const nordic = NORDIC_CROSSES[language];
  if (nordic) {
    const { width, height, field, cross, x, y, bar } = nordic;
    return (
      <svg viewBox={`0 0 ${width} ${height}`} width={24} height={16} aria-hidden="true" focusable="false">
        <rect width={width} height={height} fill={field} />
        <rect x={x} width={bar} height={height} fill={cross} />
        <rect y={y} width={width} height={bar} fill={cross} />
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
