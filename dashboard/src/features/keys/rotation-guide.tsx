/** How to replace a key without downtime: roll it, deploy the new one, watch the old one's use. */
export function RotationGuide() {
  return (
    <section class="card guide" aria-labelledby="rotation-title">
      <h2 id="rotation-title">Rotating a key without downtime</h2>
      <ol>
        <li>
          <strong>Roll</strong> the key: a new key with the same name and limit is shown once, and
          the old key keeps working for the grace period you pick (1 hour to 30 days).
        </li>
        <li>
          <strong>Deploy</strong> the new key to that integration in place of the old one.
        </li>
        <li>
          <strong>Watch “Last used”</strong>: once the new key's moves and the old key's stops, all
          traffic has switched. The old key then expires on its own, or revoke it at once.
        </li>
      </ol>
      <p class="hint">A lost key cannot be shown again: roll it, or revoke it and mint another.</p>
    </section>
  );
}
