/** A single-line form input wrapped in its visible label. */
export function LabeledInput({
  label,
  value,
  onChange,
  type,
  autoComplete,
  name,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type: 'text' | 'password';
  autoComplete: string;
  name?: string;
}) {
  return (
    <label className="labeled-input">
      {label}
      <input
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
