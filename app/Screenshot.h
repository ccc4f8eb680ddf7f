//===- Screenshot.h - the window's pixels to a PNG ----------------*- C++ -*-===//
#ifndef STAGECRAFT_APP_SCREENSHOT_H
#define STAGECRAFT_APP_SCREENSHOT_H

#include <string>

namespace stagecraft::app {

/// Reads the current GL framebuffer (the back buffer, after rendering and
/// before the swap) and writes it as a PNG. "" or an error message.
std::string writeFramebufferPng(const std::string &path, int width, int height);

} // namespace stagecraft::app

#endif // STAGECRAFT_APP_SCREENSHOT_H
