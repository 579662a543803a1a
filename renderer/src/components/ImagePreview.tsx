import { useState } from 'react';

/** An image from a result or a body, with its size; tiny images are scaled up (pixelated) so they can be seen. */
export function ImagePreview({ src, alt, mimeType }: { src: string; alt: string; mimeType?: string }) {
  const [size, setSize] = useState<{ w: number; h: number }>();
  const tiny = size && Math.max(size.w, size.h) < 48;
  return (
    <figure className="image-preview">
      <img
        src={src}
        alt={alt}
        className={tiny ? 'preview tiny' : 'preview'}
        onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
      />
      <figcaption className="muted small">
        {size ? `${size.w} × ${size.h}` : 'loading…'}
        {mimeType ? ` · ${mimeType}` : ''}
        {tiny ? ' · shown enlarged' : ''}
      </figcaption>
    </figure>
  );
}
