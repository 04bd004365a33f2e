//! What an engine hands back: straight-alpha RGBA pixels and the render's messages.

use crate::message::Message;

/// A straight (not premultiplied) RGBA8 bitmap, rows top to bottom, no padding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bitmap {
    /// Width in device pixels.
    pub width: u32,
    /// Height in device pixels.
    pub height: u32,
    /// `width * height * 4` bytes, R G B A.
    pub data: Vec<u8>,
}

impl Bitmap {
    /// A fully transparent bitmap.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            data: vec![0; width as usize * height as usize * 4],
        }
    }
}

/// The output of one engine render, before encoding.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The pixels.
    pub bitmap: Bitmap,
    /// Problems found in the config, as Chart.js would print them.
    pub messages: Vec<Message>,
}
