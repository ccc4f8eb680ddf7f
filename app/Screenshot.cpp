//===- Screenshot.cpp - the window's pixels to a PNG ----------------------===//
#include "app/Screenshot.h"

#include <GL/gl.h>
#include <stb/stb_image_write.h>

#include <vector>

std::string stagecraft::app::writeFramebufferPng(const std::string &path, int width,
                                                 int height) {
  if (width <= 0 || height <= 0)
    return "the framebuffer is empty";
  std::vector<unsigned char> pixels(static_cast<size_t>(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  if (GLenum e = glGetError(); e != GL_NO_ERROR)
    return "glReadPixels failed (GL error " + std::to_string(e) + ")";
  // GL's rows go bottom-up, PNG's top-down; and the window is opaque.
  std::vector<unsigned char> rgb(static_cast<size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c)
        rgb[(static_cast<size_t>(y) * width + x) * 3 + c] =
            pixels[(static_cast<size_t>(height - 1 - y) * width + x) * 4 + c];
  if (!stbi_write_png(path.c_str(), width, height, 3, rgb.data(), width * 3))
    return "cannot write " + path;
  return "";
}
